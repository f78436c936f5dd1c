/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IO-less variants' file header: 3.2's types and the declaration of
 * every row's ops (counters/iol_variant_list.h), so that a variant's file,
 * which includes this header, is checked against it. Each file is built
 * twice (CMakeLists.txt, IOL_VARIANT_SOURCES): for the virtual-time world,
 * where IOL_OPS(symbol) is the row's symbol, and with MMSCALE_IOL_MACHINE
 * for pinned threads on the emulated machine, where it is
 * symbol_on_machine, a struct iol_machine_ops (counters/iol_bdp.h).
 */
#ifndef MMSCALE_IOL_VARIANTS_H
#define MMSCALE_IOL_VARIANTS_H

#include "iol_variant_list.h"
#include "mmscale/linux-3.2/mm/writeback.h"

#define X(symbol, ...) extern const struct iol_variant_ops IOL_OPS(symbol);
IOL_VARIANTS(X)
#undef X

#endif /* MMSCALE_IOL_VARIANTS_H */
