/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON writer for what mmscale prints as JSON (--describe=json,
 * --list=json, the results' mmscale_families and mmscale_runs): it writes
 * the separators, the quotes and the escapes, so that no caller writes a
 * comma or a brace by hand. Items at a depth up to newline_depth start a
 * line of their own (indented two spaces a level), deeper ones follow on
 * the line; a key is NULL for an element of an array or the top value.
 */
#ifndef MMSCALE_JSON_H
#define MMSCALE_JSON_H

#include <stdbool.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MMSCALE_JSON_MAX_DEPTH	16

struct mmscale_json {
	FILE *out;
	int depth;		/* open objects and arrays */
	int newline_depth;
	bool has_items[MMSCALE_JSON_MAX_DEPTH];
	char closer[MMSCALE_JSON_MAX_DEPTH];	/* '}' or ']' of each open level */
};

/* A writer of one value on out. */
void mmscale_json_init(struct mmscale_json *j, FILE *out, int newline_depth);
/* A writer of members into an object whose braces another writes (on one line). */
void mmscale_json_init_members(struct mmscale_json *j, FILE *out);

void mmscale_json_object(struct mmscale_json *j, const char *key);
void mmscale_json_array(struct mmscale_json *j, const char *key);
/* Closes the innermost object or array. */
void mmscale_json_end(struct mmscale_json *j);

/* A string (escaped), or null for NULL. */
void mmscale_json_str(struct mmscale_json *j, const char *key, const char *s);
void mmscale_json_int(struct mmscale_json *j, const char *key, long long v);
void mmscale_json_uint(struct mmscale_json *j, const char *key, unsigned long long v);
/* A number (%.10g), or null if it is not finite. */
void mmscale_json_double(struct mmscale_json *j, const char *key, double v);
void mmscale_json_bool(struct mmscale_json *j, const char *key, bool v);
void mmscale_json_null(struct mmscale_json *j, const char *key);

/* s as a JSON string, quoted and escaped. */
void mmscale_json_string(FILE *out, const char *s);

#ifdef __cplusplus
}
#endif

#endif /* MMSCALE_JSON_H */
