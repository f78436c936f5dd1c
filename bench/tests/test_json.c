// SPDX-License-Identifier: GPL-2.0
/* The JSON writer (mmscale/json.h): separators, nesting, lines and escapes, exactly. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mmscale/json.h"

/* What write() writes with a writer whose items up to newline_depth take a line each. */
static char *written(void (*write)(struct mmscale_json *j), int newline_depth, bool members)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct mmscale_json j;

	if (!f)
		return NULL;
	if (members)
		mmscale_json_init_members(&j, f);
	else
		mmscale_json_init(&j, f, newline_depth);
	write(&j);
	fclose(f);
	return text;
}

static void nested(struct mmscale_json *j)
{
	mmscale_json_object(j, NULL);
	mmscale_json_str(j, "s", "a \"q\" \\ \n\x01");
	mmscale_json_str(j, "none", NULL);
	mmscale_json_array(j, "list");
	mmscale_json_int(j, NULL, -1);
	mmscale_json_uint(j, NULL, 18446744073709551615ULL);
	mmscale_json_object(j, NULL);
	mmscale_json_bool(j, "t", true);
	mmscale_json_null(j, "n");
	mmscale_json_end(j);
	mmscale_json_array(j, NULL);
	mmscale_json_end(j);
	mmscale_json_end(j);
	mmscale_json_object(j, "empty");
	mmscale_json_end(j);
	mmscale_json_end(j);
}

static void members(struct mmscale_json *j)
{
	mmscale_json_str(j, "a", "b");
	mmscale_json_object(j, "o");
	mmscale_json_int(j, "x", 1);
	mmscale_json_end(j);
}

static void check_text(const char *what, char *got, const char *want)
{
	CHECK(got != NULL);
	if (got && strcmp(got, want) != 0)
		fprintf(stderr, "%s:\n  got:  %s\n  want: %s\n", what, got, want);
	CHECK(got && strcmp(got, want) == 0);
	free(got);
}

int main(void)
{
	check_text("on one line", written(nested, 0, false),
		   "{\"s\": \"a \\\"q\\\" \\\\ \\u000a\\u0001\", \"none\": null, "
		   "\"list\": [-1, 18446744073709551615, {\"t\": true, \"n\": null}, []], "
		   "\"empty\": {}}");
	check_text("the top's members a line each", written(nested, 1, false),
		   "{\n  \"s\": \"a \\\"q\\\" \\\\ \\u000a\\u0001\",\n  \"none\": null,\n"
		   "  \"list\": [-1, 18446744073709551615, {\"t\": true, \"n\": null}, []],\n"
		   "  \"empty\": {}\n}");
	check_text("two levels a line each", written(nested, 2, false),
		   "{\n  \"s\": \"a \\\"q\\\" \\\\ \\u000a\\u0001\",\n  \"none\": null,\n"
		   "  \"list\": [\n    -1,\n    18446744073709551615,\n    {\"t\": true, \"n\": null},"
		   "\n    []\n  ],\n  \"empty\": {}\n}");
	check_text("members of another's object", written(members, 0, true),
		   "\"a\": \"b\", \"o\": {\"x\": 1}");
	return check_report("test_json");
}
