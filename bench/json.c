// SPDX-License-Identifier: GPL-2.0
/* The JSON writer (mmscale/json.h). */
#include <string.h>

#include "mmscale/json.h"

void mmscale_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

void mmscale_json_init(struct mmscale_json *j, FILE *out, int newline_depth)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->newline_depth = newline_depth;
}

void mmscale_json_init_members(struct mmscale_json *j, FILE *out)
{
	mmscale_json_init(j, out, 0);
	j->depth = 1;
}

static void indent(struct mmscale_json *j, int depth)
{
	fputc('\n', j->out);
	for (int i = 0; i < depth; i++)
		fputs("  ", j->out);
}

/* The separator before an item at the current depth, and its key. */
static void item(struct mmscale_json *j, const char *key)
{
	bool *has = &j->has_items[j->depth];

	if (*has)
		fputc(',', j->out);
	if (j->depth > 0 && j->depth <= j->newline_depth)
		indent(j, j->depth);
	else if (*has)
		fputc(' ', j->out);
	*has = true;
	if (key) {
		mmscale_json_string(j->out, key);
		fputs(": ", j->out);
	}
}

/* Deeper than MMSCALE_JSON_MAX_DEPTH the levels share the last slot: never so deep here. */
static void open_level(struct mmscale_json *j, const char *key, char bracket, char closer)
{
	item(j, key);
	fputc(bracket, j->out);
	if (j->depth + 1 < MMSCALE_JSON_MAX_DEPTH)
		j->depth++;
	j->has_items[j->depth] = false;
	j->closer[j->depth] = closer;
}

void mmscale_json_object(struct mmscale_json *j, const char *key)
{
	open_level(j, key, '{', '}');
}

void mmscale_json_array(struct mmscale_json *j, const char *key)
{
	open_level(j, key, '[', ']');
}

void mmscale_json_end(struct mmscale_json *j)
{
	if (j->depth <= 0)
		return;
	if (j->has_items[j->depth] && j->depth <= j->newline_depth)
		indent(j, j->depth - 1);
	fputc(j->closer[j->depth], j->out);
	j->depth--;
}

void mmscale_json_str(struct mmscale_json *j, const char *key, const char *s)
{
	item(j, key);
	if (s)
		mmscale_json_string(j->out, s);
	else
		fputs("null", j->out);
}

void mmscale_json_int(struct mmscale_json *j, const char *key, long long v)
{
	item(j, key);
	fprintf(j->out, "%lld", v);
}

void mmscale_json_uint(struct mmscale_json *j, const char *key, unsigned long long v)
{
	item(j, key);
	fprintf(j->out, "%llu", v);
}

void mmscale_json_double(struct mmscale_json *j, const char *key, double v)
{
	item(j, key);
	if (v != v || v - v != 0)	/* NaN or infinite: JSON has no such number */
		fputs("null", j->out);
	else
		fprintf(j->out, "%.10g", v);
}

void mmscale_json_bool(struct mmscale_json *j, const char *key, bool v)
{
	item(j, key);
	fputs(v ? "true" : "false", j->out);
}

void mmscale_json_null(struct mmscale_json *j, const char *key)
{
	item(j, key);
	fputs("null", j->out);
}
