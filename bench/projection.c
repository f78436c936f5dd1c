// SPDX-License-Identifier: GPL-2.0
/*
 * mmscale --transfers --project=FILE: each counting row's exact counts
 * priced on the machine FILE describes, added to the row as counters named
 * projected_* (never a time of the run: a counting run's times are not for
 * timing, and a projected figure is not a measured one).
 *
 * The model is scripts/projection.py's, "mmscale-proj 2", of which this is
 * the part a counting run alone can price; the two are held together by
 * scripts/tests/test_project.py, which projects the same rows both ways:
 *
 *   transfers  per op by where the previous holder sat x the file's
 *              transfer_ns of that class, the locked share
 *              (transfers_locked / transfers) at locked_ns where the file
 *              gives it; of a row that sends IPIs, its own threads'
 *              transfers and one target's mean share of the rest (they
 *              answer in parallel: projection.py's in_series_share)
 *   ipis       ipis_sent x ipi_send_ns + min(ipis_sent, 1) x ipi_receive_ns
 *   targets_queueing
 *              of a row that sends IPIs to T targets whose every CPU takes
 *              the same locks (lock_acquires = (T + 1) L), the caller's
 *              extra wait for the last target on the first of them: the
 *              targets arrive ipi_send_ns apart (together, an upper bound,
 *              where the file has no IPI figure), each hand-off the ticket
 *              lock's S + (k - 1) c / 2 or the queued lock's S, by the
 *              row's own counted kind (queued_lock_acquires)
 *
 * Left out, and said in the results' context: the local work (a timed run
 * here, less its own transfers priced on this machine) and the queueing
 * of a row's own threads on its locks, which needs the time outside the
 * lock: scripts/project --local --here prices them.
 *
 * The machine file's format is scripts/machines.py's; this reader takes
 * and refuses what that one does - lines split at '\n' only, ASCII blanks
 * stripped, ASCII decimal numbers, UTF-8 text of at most 1 MiB - save
 * that FILE is a path, not a name of machines/ (test_project checks both
 * readers on the same files), each refusal one line naming the file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmscale/errorf.h"
#include "mmscale/opcount.h"
#include "mmscale/projection.h"

/* The classes in the order of the counting build's counts (transfers_core ... _remote). */
_Static_assert(MMSCALE_XFER_REMOTE - MMSCALE_XFER_CORE == MMSCALE_CLASS_REMOTE &&
	       MMSCALE_XFER_NODE - MMSCALE_XFER_CORE == MMSCALE_CLASS_NODE &&
	       MMSCALE_XFER_CACHE - MMSCALE_XFER_CORE == MMSCALE_CLASS_CACHE,
	       "enum mmscale_transfer_class follows enum mmscale_count's transfer classes");

const char *const mmscale_transfer_class_names[MMSCALE_NR_CLASSES] = {
	"core", "cache", "node", "remote",
};

/* The largest machine file read: a description is a few dozen lines. */
#define MACHINE_FILE_MAX (1 << 20)

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' || *s == '\v')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' ||
			   end[-1] == '\f' || end[-1] == '\v'))
		*--end = '\0';
	return s;
}

static int class_of(const char *word)
{
	for (int c = 0; c < MMSCALE_NR_CLASSES; c++)
		if (!strcmp(word, mmscale_transfer_class_names[c]))
			return c;
	return -1;
}

/* A number as machines.py's NUMBER takes it: decimal, ASCII, no inf, nan or hex. */
static int parse_number(const char *text, double *v)
{
	static const char pattern[] = "^[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?$";
	regex_t re;
	char *end;
	int matched;

	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
		return -1;
	matched = regexec(&re, text, 0, NULL, 0) == 0;
	regfree(&re);
	if (!matched)
		return -1;
	*v = strtod(text, &end);
	return *end ? -1 : 0;
}

/* The keys given so far (a key given twice is an error), as many as the file has. */
struct seen_keys {
	char **keys;
	size_t n;
};

/* Whether key was given before (and remember it); -1: out of memory. */
static int seen_before(struct seen_keys *s, const char *key)
{
	char **grown;

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->keys[i], key))
			return 1;
	grown = realloc(s->keys, (s->n + 1) * sizeof(*s->keys));
	if (!grown)
		return -1;
	s->keys = grown;
	s->keys[s->n] = strdup(key);
	if (!s->keys[s->n])
		return -1;
	s->n++;
	return 0;
}

static void seen_keys_free(struct seen_keys *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->keys[i]);
	free(s->keys);
}

/* Copy text into a field, cut (if it must be) where a UTF-8 character starts. */
static void copy_text(char *field, size_t size, const char *text)
{
	size_t len = strlen(text);

	if (len >= size) {
		len = size - 1;
		while (len && ((unsigned char)text[len] & 0xc0) == 0x80)
			len--;
	}
	memcpy(field, text, len);
	field[len] = '\0';
}

/* One "key = value" line of a number; line n of path. */
static int number_line(struct mmscale_machine_file *m, const char *key, const char *value,
		       const char *path, int n, char *err, size_t errlen)
{
	static const char pattern[] =
		"^(transfer_ns|locked_ns)\\.(core|cache|node|remote)(\\.[0-9]+)?$|"
		"^(ipi_send_ns|ipi_receive_ns)$|^pairs\\.(core|cache|node|remote)$";
	regex_t re;
	regmatch_t g[6];
	int matched;
	double v;

	if (regcomp(&re, pattern, REG_EXTENDED) != 0)
		return mmscale_errorf(err, errlen, "%s: out of memory", path);
	matched = regexec(&re, key, 6, g, 0) == 0;
	regfree(&re);
	if (!matched)
		return mmscale_errorf(err, errlen, "%s:%d: unknown key '%s' (the format is in "
				      "scripts/machines.py)", path, n, key);
	if (parse_number(value, &v) != 0)
		return mmscale_errorf(err, errlen, "%s:%d: %s = '%s' is not a number", path, n, key,
				      value);
	if (!(v >= 0) || isinf(v))
		return mmscale_errorf(err, errlen, "%s:%d: %s = %s must be a finite number >= 0",
				      path, n, key, value);
	if (g[1].rm_so >= 0) {
		bool transfer = !strncmp(key, "transfer_ns", 11);
		char word[8] = "";
		int c;

		snprintf(word, sizeof(word), "%.*s", (int)(g[2].rm_eo - g[2].rm_so), key + g[2].rm_so);
		c = class_of(word);
		if (g[3].rm_so >= 0) {
			if (!transfer || c != MMSCALE_CLASS_REMOTE)
				return mmscale_errorf(err, errlen, "%s:%d: only transfer_ns.remote "
						      "takes a distance", path, n);
			return 0;	/* by distance: not priced apart yet (projection.py neither) */
		}
		if (transfer) {
			m->transfer_ns[c] = v;
			m->has_transfer[c] = true;
		} else {
			m->locked_ns[c] = v;
			m->has_locked[c] = true;
		}
	} else if (g[4].rm_so >= 0) {
		if (!strcmp(key, "ipi_send_ns")) {
			m->ipi_send_ns = v;
			m->has_ipi_send = true;
		} else {
			m->ipi_receive_ns = v;
			m->has_ipi_receive = true;
		}
	} else if (v != floor(v)) {
		return mmscale_errorf(err, errlen, "%s:%d: %s = %s is not a whole number", path, n,
				      key, value);
	}
	return 0;
}

int mmscale_machine_file_parse(const char *text, const char *path,
			       struct mmscale_machine_file *m, char *err, size_t errlen)
{
	static const char *const required[] = { "format", "name", "source", "method",
						"confidence" };
	char format[64] = "";
	struct seen_keys seen = { .keys = NULL, .n = 0 };
	char *copy = strdup(text), *line, *next;
	bool any_transfer = false;
	int n = 0, status = 0;

	memset(m, 0, sizeof(*m));
	snprintf(m->path, sizeof(m->path), "%s", path);
	if (!copy)
		return mmscale_errorf(err, errlen, "%s: out of memory", path);
	for (line = copy; line && !status; line = next) {
		char *key, *value, *eq;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		n++;
		line = trim(line);
		if (!*line || *line == '#')
			continue;
		eq = strchr(line, '=');
		if (!eq) {
			status = mmscale_errorf(err, errlen, "%s:%d: want 'key = value', got '%s'",
						path, n, line);
			break;
		}
		*eq = '\0';
		key = trim(line);
		value = trim(eq + 1);
		if (!*value) {
			status = mmscale_errorf(err, errlen, "%s:%d: %s has no value", path, n, key);
			break;
		}
		if (!strcmp(key, "note"))
			continue;
		switch (seen_before(&seen, key)) {
		case 1:
			status = mmscale_errorf(err, errlen, "%s:%d: %s given twice", path, n, key);
			continue;
		case -1:
			status = mmscale_errorf(err, errlen, "%s: out of memory", path);
			continue;
		}
		if (!strcmp(key, "format"))
			copy_text(format, sizeof(format), value);
		else if (!strcmp(key, "name"))
			copy_text(m->name, sizeof(m->name), value);
		else if (!strcmp(key, "confidence"))
			copy_text(m->confidence, sizeof(m->confidence), value);
		else if (strcmp(key, "source") && strcmp(key, "method") && strcmp(key, "topology"))
			status = number_line(m, key, value, path, n, err, errlen);
	}
	free(copy);
	for (size_t i = 0; !status && i < sizeof(required) / sizeof(required[0]); i++)
		if (seen_before(&seen, required[i]) != 1)
			status = mmscale_errorf(err, errlen, "%s: no %s line (every machine file says "
						"its format, name, source, method and confidence)",
						path, required[i]);
	seen_keys_free(&seen);
	if (status)
		return status;
	if (strcmp(format, MMSCALE_MACHINE_FORMAT))
		return mmscale_errorf(err, errlen, "%s: format '%s': this mmscale reads '%s'", path,
				      format, MMSCALE_MACHINE_FORMAT);
	if (strcmp(m->confidence, "measured") && strcmp(m->confidence, "published") &&
	    strcmp(m->confidence, "low"))
		return mmscale_errorf(err, errlen, "%s: confidence '%s': want one of measured, "
				      "published, low", path, m->confidence);
	for (int c = 0; c < MMSCALE_NR_CLASSES; c++)
		any_transfer |= m->has_transfer[c];
	if (!any_transfer)
		return mmscale_errorf(err, errlen, "%s: no transfer_ns.CLASS line: nothing to "
				      "price transfers with", path);
	return 0;
}

/* Where text stops being UTF-8 (as Python's decoder reads it), or -1 if it is. */
static long not_utf8_at(const unsigned char *t, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t n = t[i] < 0x80 ? 1 : (t[i] & 0xe0) == 0xc0 && t[i] >= 0xc2 ? 2 :
			   (t[i] & 0xf0) == 0xe0 ? 3 : (t[i] & 0xf8) == 0xf0 && t[i] <= 0xf4 ? 4 : 0;
		unsigned int cp;

		if (!n || i + n > len)
			return (long)i;
		cp = n == 1 ? t[i] : t[i] & (0x7f >> n);
		for (size_t k = 1; k < n; k++) {
			if ((t[i + k] & 0xc0) != 0x80)
				return (long)i;
			cp = cp << 6 | (t[i + k] & 0x3f);
		}
		/* Overlong forms, surrogates and beyond U+10FFFF are not UTF-8. */
		if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return (long)i;
		i += n;
	}
	return -1;
}

int mmscale_machine_file_load(const char *path, struct mmscale_machine_file *m, char *err,
			      size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text;
	size_t len;
	long bad_at;
	int status;

	if (!f)
		return mmscale_errorf(err, errlen, "%s: %s%s", path, strerror(errno),
				      errno == ENOENT ? " (the shipped machines are machines/"
				      "*.machine in mmscale's source tree)" : "");
	text = malloc(MACHINE_FILE_MAX + 1);
	if (!text) {
		fclose(f);
		return mmscale_errorf(err, errlen, "%s: out of memory", path);
	}
	len = fread(text, 1, MACHINE_FILE_MAX + 1, f);
	status = ferror(f);
	fclose(f);
	if (status || len > MACHINE_FILE_MAX || memchr(text, '\0', len)) {
		free(text);
		return mmscale_errorf(err, errlen, "%s: %s", path, status ? "could not be read" :
				      "not a machine file (binary, or over 1 MiB)");
	}
	text[len] = '\0';
	bad_at = not_utf8_at((const unsigned char *)text, len);
	if (bad_at >= 0) {
		free(text);
		return mmscale_errorf(err, errlen, "%s: not UTF-8 text (at byte %ld)", path, bad_at);
	}
	status = mmscale_machine_file_parse(text, path, m, err, errlen);
	free(text);
	return status;
}

/* projection.py's price_transfers: the transfers' ns per op, and those it cannot price. */
static double price_transfers(const struct mmscale_projection_counts *c,
			      const struct mmscale_machine_file *m, double *unpriced)
{
	double locked_share = c->transfers > 0 ? c->transfers_locked / c->transfers : 0.0;
	double ns = 0.0;

	*unpriced = 0.0;
	for (int k = 0; k < MMSCALE_NR_CLASSES; k++) {
		double x = c->by_class[k], t, locked;

		if (x == 0)
			continue;
		if (!m->has_transfer[k]) {
			*unpriced += x;
			continue;
		}
		t = m->transfer_ns[k];
		locked = m->has_locked[k] ? m->locked_ns[k] : t;
		ns += x * ((1 - locked_share) * t + locked_share * locked);
	}
	return ns;
}

/* projection.py's in_series_share: the share of the transfers on an operation's path. */
static double in_series_share(const struct mmscale_projection_counts *c)
{
	double own;

	if (!c->has_by_threads || c->transfers <= 0 || c->ipis_sent <= 0)
		return 1.0;
	own = fmin(c->transfers_by_threads, c->transfers);
	return (own + (c->transfers - own) / fmax(c->ipis_sent, 1.0)) / c->transfers;
}

/*
 * projection.py's mean_transfer_ns: a lock hand-off's transfer, the row's
 * own mix of the classes the file prices; the remote figure (else the
 * largest) where it moved none; 0 where it moved only unpriced ones.
 */
static double mean_transfer_ns(const struct mmscale_projection_counts *c,
			       const struct mmscale_machine_file *m)
{
	double total = 0.0, ns = 0.0, largest = 0.0;
	bool moved = false;

	for (int k = 0; k < MMSCALE_NR_CLASSES; k++) {
		moved |= c->by_class[k] > 0;
		if (!m->has_transfer[k])
			continue;
		total += c->by_class[k];
		ns += c->by_class[k] * m->transfer_ns[k];
		largest = fmax(largest, m->transfer_ns[k]);
	}
	if (total <= 0)
		return moved ? 0.0 : m->has_transfer[MMSCALE_CLASS_REMOTE] ?
			m->transfer_ns[MMSCALE_CLASS_REMOTE] : largest;
	return ns / total;
}

/* projection.py's handoff_ns: the lock handed on with k cores holding or waiting. */
static double handoff_ns(double k, double s, double c, bool ticket)
{
	return ticket ? s + c + (k - 1) * c / 2 : s + c;
}

/*
 * projection.py's targets_queueing_ns: T targets reach the first lock
 * send_ns apart (target j at (j + 1) send_ns) and are served in order; the
 * last one's departure less its uncontended T send_ns + S.
 */
static double targets_queueing_ns(long targets, double send_ns, double s, double c, bool ticket)
{
	double free_at = 0.0;
	long arrived = 0;	/* targets whose arrival is at or before start */

	for (long j = 0; j < targets; j++) {
		double start = fmax((double)(j + 1) * send_ns, free_at);

		while (arrived < targets && (double)(arrived + 1) * send_ns <= start)
			arrived++;
		free_at = start + handoff_ns((double)(arrived - j), s, c, ticket);
	}
	return fmax(0.0, free_at - ((double)targets * send_ns + s + c));
}

static void project_targets(const struct mmscale_projection_counts *c,
			    const struct mmscale_machine_file *m, struct mmscale_projection *out)
{
	double targets, per_cpu, handoff;
	bool ticket;

	out->targets = MMSCALE_TARGETS_NONE;
	if (c->ipis_sent < 1 || !(c->lock_acquires > 0))
		return;
	/* Python's round(): halves to even, as nearbyint in the default rounding mode. */
	targets = nearbyint(c->ipis_sent);
	per_cpu = c->lock_acquires / (targets + 1);
	if (fabs(per_cpu - nearbyint(per_cpu)) > 0.01 * per_cpu) {
		out->targets = MMSCALE_TARGETS_NOT_ALIKE;
		return;
	}
	if (!c->has_queued) {
		out->targets = MMSCALE_TARGETS_KIND_UNKNOWN;
		return;
	}
	if (c->queued_lock_acquires != 0 &&
	    fabs(c->queued_lock_acquires - c->lock_acquires) > 1e-9 * c->lock_acquires) {
		out->targets = MMSCALE_TARGETS_KIND_MIXED;
		return;
	}
	ticket = c->queued_lock_acquires == 0;
	handoff = mean_transfer_ns(c, m);
	if (!(handoff > 0)) {
		out->targets = MMSCALE_TARGETS_NO_HANDOFF;
		return;
	}
	out->targets = MMSCALE_TARGETS_PRICED;
	out->targets_together = !m->has_ipi_send;
	out->targets_queueing_ns = targets_queueing_ns((long)targets,
						       m->has_ipi_send ? m->ipi_send_ns : 0.0,
						       handoff, handoff, ticket);
}

void mmscale_project_row(const struct mmscale_projection_counts *c,
			 const struct mmscale_machine_file *m, struct mmscale_projection *out)
{
	memset(out, 0, sizeof(*out));
	out->transfers_ns = price_transfers(c, m, &out->unpriced_transfers) * in_series_share(c);
	out->targets_unknown = c->ipis_sent > 0 && !c->has_by_threads;
	out->ipis_priced = true;
	if (c->ipis_sent > 0) {
		out->ipis_priced = m->has_ipi_send && m->has_ipi_receive;
		if (out->ipis_priced)
			/* The targets answer in parallel: one answer waited for per call. */
			out->ipis_ns = c->ipis_sent * m->ipi_send_ns +
				       fmin(c->ipis_sent, 1.0) * m->ipi_receive_ns;
	}
	project_targets(c, m, out);
}

static bool counter(const char *const *names, const double *values, size_t n, const char *name,
		    double *v)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name)) {
			*v = values[i];
			return true;
		}
	return false;
}

/*
 * Why the targets' queueing is not priced, in projection.py's words - save
 * an unknown kind's, which names no --lock (mmscale has none; its harness
 * publishes the kind wherever it publishes lock_acquires).
 */
static const char *targets_unpriced_why(const struct mmscale_projection *p,
					const struct mmscale_projection_counts *c)
{
	static _Thread_local char why[160];

	switch (p->targets) {
	case MMSCALE_TARGETS_NOT_ALIKE:
		snprintf(why, sizeof(why), "%g lock acquisitions for %.0f CPUs: not the same locks "
			 "on every CPU", c->lock_acquires, nearbyint(c->ipis_sent) + 1);
		return why;
	case MMSCALE_TARGETS_KIND_UNKNOWN:
		return "the run did not count its lock kind: no queued_lock_acquires";
	case MMSCALE_TARGETS_KIND_MIXED:
		return "the row takes both ticket and queued locks: not modelled";
	case MMSCALE_TARGETS_NO_HANDOFF:
		return "no transfer figure for the row's classes";
	default:
		return "";
	}
}

int mmscale_projection_counters(const struct mmscale_machine_file *m,
				const char *const *counter_names, const double *counter_values,
				size_t nr_counters, const char **names, double *values,
				char *label, size_t label_len)
{
	struct mmscale_projection_counts c = { 0 };
	struct mmscale_projection p;
	size_t used = 0;
	int nr = 0;

	label[0] = '\0';
	/* The counts by the names the counting build publishes them under (kernel/opcount.c). */
	if (!counter(counter_names, counter_values, nr_counters, mmscale_count_name(MMSCALE_XFERS),
		     &c.transfers))
		return 0;
	counter(counter_names, counter_values, nr_counters, mmscale_count_name(MMSCALE_XFER_LOCKED),
		&c.transfers_locked);
	counter(counter_names, counter_values, nr_counters, mmscale_count_name(MMSCALE_IPIS_SENT),
		&c.ipis_sent);
	counter(counter_names, counter_values, nr_counters,
		mmscale_count_name(MMSCALE_LOCK_ACQUIRES), &c.lock_acquires);
	c.has_queued = counter(counter_names, counter_values, nr_counters,
			       mmscale_count_name(MMSCALE_QUEUED_LOCK_ACQUIRES),
			       &c.queued_lock_acquires);
	/* bench/harness.c's own counter: no count of the table. */
	c.has_by_threads = counter(counter_names, counter_values, nr_counters,
				   "transfers_by_threads", &c.transfers_by_threads);
	for (int k = 0; k < MMSCALE_NR_CLASSES; k++)
		counter(counter_names, counter_values, nr_counters,
			mmscale_count_name(MMSCALE_XFER_CORE + k), &c.by_class[k]);
	mmscale_project_row(&c, m, &p);
	names[nr] = "projected_transfers_ns";
	values[nr++] = p.transfers_ns;
	if (p.ipis_priced) {
		names[nr] = "projected_ipis_ns";
		values[nr++] = p.ipis_ns;
	}
	if (p.targets == MMSCALE_TARGETS_PRICED) {
		names[nr] = "projected_targets_queueing_ns";
		values[nr++] = p.targets_queueing_ns;
	}
	/* The sum, only where every part a counting run can price was priced. */
	if (p.ipis_priced && p.unpriced_transfers == 0 &&
	    (p.targets == MMSCALE_TARGETS_NONE || p.targets == MMSCALE_TARGETS_PRICED)) {
		names[nr] = "projected_ns_excl_local";
		values[nr++] = p.transfers_ns + p.ipis_ns + p.targets_queueing_ns;
	}
	/* What this row leaves unpriced, in projection.py's words. */
	if (!p.ipis_priced)
		used += (size_t)snprintf(label + used, label_len - used, "projection leaves out %g "
					 "IPIs per op (the machine file has no IPI figures)",
					 c.ipis_sent);
	for (int k = 0; k < MMSCALE_NR_CLASSES && used < label_len; k++)
		if (c.by_class[k] != 0 && !m->has_transfer[k])
			used += (size_t)snprintf(label + used, label_len - used, "%s%g %s transfers "
						 "per op (no transfer_ns.%s)",
						 used ? "; " : "projection leaves out ",
						 c.by_class[k], mmscale_transfer_class_names[k],
						 mmscale_transfer_class_names[k]);
	if (p.targets_unknown && used < label_len)
		used += (size_t)snprintf(label + used, label_len - used, "%swhich transfers an "
					 "IPI's targets made (no transfers_by_threads): all priced "
					 "in series", used ? "; " : "projection: ");
	if (p.targets != MMSCALE_TARGETS_NONE && p.targets != MMSCALE_TARGETS_PRICED &&
	    used < label_len)
		used += (size_t)snprintf(label + used, label_len - used, "%sthe targets' queueing "
					 "(%s)", used ? "; " : "projection leaves out ",
					 targets_unpriced_why(&p, &c));
	if (p.targets == MMSCALE_TARGETS_PRICED && p.targets_together && used < label_len)
		snprintf(label + used, label_len - used, "%sthe targets' arrival spacing (no IPI "
			 "figures: taken as together, an upper bound on their queueing)",
			 used ? "; " : "projection leaves out ");
	return nr;
}
