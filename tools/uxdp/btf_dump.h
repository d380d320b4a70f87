/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Values formatted from BTF as `bpftool map dump` prints them (btf_dump.c),
 * and the map element printer built on it, shared by `prog run dump-maps`
 * and the script's `map dump|lookup`.
 */
#ifndef _UXDP_TOOLS_BTF_DUMP_H
#define _UXDP_TOOLS_BTF_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <uxdp_bpf.h>

struct btf;

/**
 * btf_dump_value() - print @data as BTF type @type_id, as JSON, to @f
 * @btf: the object's BTF; NULL or @type_id 0 prints @data as a hex string
 * @size: bytes at @data; a type of another size prints as hex too
 *
 * Integers are numbers (bool true/false), printable chars and char arrays
 * holding a string are strings, structs and unions objects keyed by member
 * name, arrays arrays, enums their enumerator's name, a DATASEC an object
 * keyed by variable name, anything else a hex string.
 * Return: 0 when typed from BTF, 1 when printed as hex.
 */
int btf_dump_value(FILE *f, const struct btf *btf, uint32_t type_id, const void *data,
		   size_t size);

/* Print @n bytes at @p as "0a0b..." (JSON string with quotes if @quoted). */
void btf_dump_hex(FILE *f, const void *p, size_t n, bool quoted);

/**
 * btf_dump_elem() - print one map element
 * @m: the map; @btf: its object's BTF or NULL
 * @val: value as a lookup copies it (per-CPU: every CPU, 8-byte strides)
 * @json: true: bpftool -j's {"key":HEX,"value":HEX (per-CPU: [HEX,...]),
 *	  "formatted":{"key":K,"value":V}} (per-CPU: "values":[{"cpu":N,
 *	  "value":V}]), "formatted" only with BTF;
 *	  false: bpftool's plain "key: K  value: V", typed or hex
 */
void btf_dump_elem(FILE *f, const struct uxdp_bpf_map_desc *m, const struct btf *btf,
		   const void *key, const void *val, bool json);

#endif
