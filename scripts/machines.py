"""Machine descriptions (machines/*.machine): what a cache-line transfer, a
locked operation on a line held elsewhere and an IPI cost on one machine,
by where the previous holder sits, and where each figure came from. The
projection (scripts/projection.py) prices a row's exact counts with them.

The format, one 'key = value' a line (a line starting with '#' is a
comment, blank lines are skipped; the words after the values below say
what each key means and are not part of the format):

  format = mmscale-machine 1
  name = Dual Intel Xeon Gold 6242 (2 sockets x 16 cores x 2 threads)
  source = <where every figure below was read: repository, path, commit, blob>
  method = <how the figures were made from the source>
  confidence = measured | published | low
  topology = synthetic:node:2 core:16 pu:2   (optional) the machine's shape as
                               an hwloc synthetic topology: `mmscale --transfers
                               --topology=...` counts its rows on a stand-in of it
  transfer_ns.core = 7.4       an SMT sibling held the line
  transfer_ns.cache = 48.0     another core of the same last-level cache
  transfer_ns.node = 48.0      another LLC of the same NUMA node
  transfer_ns.remote = 141.4   another node (transfer_ns.remote.D: at hwloc distance D)
  locked_ns.CLASS = ...        a locked operation on a line held there
                               (absent: priced as a transfer; the file says so)
  ipi_send_ns = ...            the sender's cost per target
  ipi_receive_ns = ...         a target's entry, handler call and return
  pairs.CLASS = N              how many CPU pairs the source measured in the
                               cluster that gave CLASS its figure (its notes
                               say where that is not the class's own pairs)
  note = ...                   anything else a reader must know (repeatable)

A figure the source does not give is left out, never guessed: the
projection then says what it could not price. Every error is one line
naming the file and line (MachineError)."""
import os
import re

FORMAT = "mmscale-machine 1"
CLASSES = ("core", "cache", "node", "remote")
CONFIDENCE = ("measured", "published", "low")
TEXT_KEYS = ("format", "name", "source", "method", "confidence")
OPTIONAL_TEXT_KEYS = ("topology",)
NUMBER_KEY = re.compile(r"^(transfer_ns|locked_ns)\.(core|cache|node|remote)(?:\.(\d+))?$|"
                        r"^(ipi_send_ns|ipi_receive_ns)$|^pairs\.(core|cache|node|remote)$",
                        re.ASCII)
# A number as a machine file writes it: decimal, ASCII (bench/projection.c reads the same).
NUMBER = re.compile(r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$", re.ASCII)
# What a line is split on and stripped of: the same bytes as bench/projection.c.
BLANKS = " \t\r\f\v"
LARGEST = 1 << 20  # bytes: a description is a few dozen lines


class MachineError(ValueError):
    """A machine file that cannot be used: one line, naming the file and line."""


def parse_text(text, path="<machine>"):
    """-> dict: the text keys, 'transfer_ns' / 'locked_ns' {class: ns},
    'transfer_ns_by_distance' {distance: ns}, 'ipi_send_ns', 'ipi_receive_ns'
    (None where absent), 'pairs' {class: n}, 'notes' [str], 'path'."""
    m = {"path": path, "transfer_ns": {}, "locked_ns": {}, "transfer_ns_by_distance": {},
         "ipi_send_ns": None, "ipi_receive_ns": None, "pairs": {}, "notes": []}
    seen = set()
    if "\0" in text or len(text.encode("utf-8", "surrogatepass")) > LARGEST:
        raise MachineError(f"{path}: not a machine file (binary, or over 1 MiB)")
    for n, raw in enumerate(text.split("\n"), 1):
        line = raw.strip(BLANKS)
        if not line or line.startswith("#"):
            continue
        if "=" not in line:
            raise MachineError(f"{path}:{n}: want 'key = value', got {line!r}")
        key, value = (p.strip(BLANKS) for p in line.split("=", 1))
        if not value:
            raise MachineError(f"{path}:{n}: {key} has no value")
        if key == "note":
            m["notes"].append(value)
            continue
        if key in seen:
            raise MachineError(f"{path}:{n}: {key} given twice")
        seen.add(key)
        if key in TEXT_KEYS or key in OPTIONAL_TEXT_KEYS:
            m[key] = value
            continue
        k = NUMBER_KEY.match(key)
        if not k:
            raise MachineError(f"{path}:{n}: unknown key {key!r} (the format is in "
                               f"scripts/machines.py)")
        if not NUMBER.match(value):
            raise MachineError(f"{path}:{n}: {key} = {value!r} is not a number")
        v = float(value)
        if not v >= 0 or v == float("inf"):
            raise MachineError(f"{path}:{n}: {key} = {value} must be a finite number >= 0")
        if k.group(1) and k.group(3):
            if k.group(1) != "transfer_ns" or k.group(2) != "remote":
                raise MachineError(f"{path}:{n}: only transfer_ns.remote takes a distance")
            m["transfer_ns_by_distance"][int(k.group(3))] = v
        elif k.group(1):
            m[k.group(1)][k.group(2)] = v
        elif k.group(4):
            m[k.group(4)] = v
        else:
            if v != int(v):
                raise MachineError(f"{path}:{n}: {key} = {value} is not a whole number")
            m["pairs"][k.group(5)] = int(v)
    for key in TEXT_KEYS:
        if key not in m:
            raise MachineError(f"{path}: no {key} line (every machine file says its format, "
                               f"name, source, method and confidence)")
    if m["format"] != FORMAT:
        raise MachineError(f"{path}: format {m['format']!r}: this mmscale reads {FORMAT!r}")
    if m["confidence"] not in CONFIDENCE:
        raise MachineError(f"{path}: confidence {m['confidence']!r}: want one of "
                           f"{', '.join(CONFIDENCE)}")
    if not m["transfer_ns"]:
        raise MachineError(f"{path}: no transfer_ns.CLASS line: nothing to price transfers with")
    return m


def load(path):
    """A machine file by path, or by name from machines/ (dual-xeon-gold-6242)."""
    if not os.path.exists(path) and os.sep not in path:
        shipped = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                               "machines", path + ("" if path.endswith(".machine")
                                                   else ".machine"))
        if os.path.exists(shipped):
            path = shipped
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise MachineError(f"{path}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise MachineError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    return parse_text(text, path)


def shipped():
    """The machine files in machines/, by name."""
    d = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "machines")
    return sorted(f[:-len(".machine")] for f in os.listdir(d) if f.endswith(".machine"))


def format_number(v):
    return f"{v:.1f}"


def render(m):
    """A machine dict back to its file text (what --save and machine-from-c2c write)."""
    out = [f"format = {FORMAT}", f"name = {m['name']}", f"source = {m['source']}",
           f"method = {m['method']}", f"confidence = {m['confidence']}"]
    if m.get("topology"):
        out.append(f"topology = {m['topology']}")
    for note in m.get("notes", []):
        out.append(f"note = {note}")
    for kind in ("transfer_ns", "locked_ns"):
        for c in CLASSES:
            if c in m.get(kind, {}):
                out.append(f"{kind}.{c} = {format_number(m[kind][c])}")
    for d, v in sorted(m.get("transfer_ns_by_distance", {}).items()):
        out.append(f"transfer_ns.remote.{d} = {format_number(v)}")
    for key in ("ipi_send_ns", "ipi_receive_ns"):
        if m.get(key) is not None:
            out.append(f"{key} = {format_number(m[key])}")
    for c in CLASSES:
        if c in m.get("pairs", {}):
            out.append(f"pairs.{c} = {m['pairs'][c]}")
    return "\n".join(out) + "\n"
