/*
 * cli/cli-config.c - modalias.conf read through GKeyFile (cli-config.h):
 * typos warned with their line, bad values refused with their line, the
 * extra tables checked readable and trusted (cli-tables.c's
 * cli_table_open(), which holds that policy).
 *
 * This file reads settings; it may not act on them (cli-tables.c opens
 * what they name).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <stdbool.h>

#include "cli-config.h"
#include "cli-output.h"
#include "cli-tables.h"
#include "read-file.h"

static const struct known {
	const char *group;
	const char *keys[8];
} known[] = {
	{ "modules", { "root", "version", "directory", "modprobe.d", "tables", "blacklist", "cache", NULL } },
	{ "log", { "level", NULL } },
	{ "agent", { "hotplug-dir", "sysfs", "max-parallel", "coldplug", "handler-timeout", "coldplug-timeout", NULL } },
};

int cli_log_level_parse(const char *s)
{
	static const char *const names[] = { "emerg", "alert", "crit", "err", "warning", "notice", "info", "debug" };
	char *end;
	long n;

	if (!s || !*s)
		return -1;
	n = strtol(s, &end, 10);
	if (*end == '\0')
		return n >= 0 && n <= 7 ? (int)n : -1;
	for (int i = 0; i < 8; i++)
		if (strcasecmp(s, names[i]) == 0 || (i == 3 && strcasecmp(s, "error") == 0))
			return i;
	return -1;
}

/* GKeyFile keeps no line numbers: find them in the text. */
static int line_of(const char *text, const char *group, const char *key)
{
	char **lines = g_strsplit(text, "\n", -1);
	bool in_group = false;
	int found = 0;

	for (int i = 0; lines[i]; i++) {
		const char *l = lines[i];
		while (*l == ' ' || *l == '\t')
			l++;
		if (*l == '[') {
			const char *close = strchr(l, ']');
			in_group = close && (size_t)(close - l - 1) == strlen(group) && strncmp(l + 1, group, strlen(group)) == 0;
			if (in_group && !key) {
				found = i + 1;
				break;
			}
		} else if (in_group && key && strncmp(l, key, strlen(key)) == 0) {
			const char *p = l + strlen(key);
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p == '=' || *p == '[') {
				found = i + 1;
				break;
			}
		}
	}
	g_strfreev(lines);
	return found;
}

/* GKeyFile's parse errors name the line by its text at best.  It reads a
 * line at a time, and whether a line parses depends only on the lines
 * before it, so the first k lines fail to load exactly when k reaches the
 * bad line: the smallest such k is its number (0: not found). */
static int parse_error_line(const char *text, gsize len)
{
	g_autoptr(GArray) ends = g_array_new(FALSE, FALSE, sizeof(gsize));
	unsigned int lo = 1, hi;

	for (gsize i = 0; i < len; i++)
		if (text[i] == '\n')
			g_array_append_val(ends, i);
	if (len && text[len - 1] != '\n')
		g_array_append_val(ends, len);
	hi = ends->len;
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		g_autoptr(GKeyFile) kf = g_key_file_new();

		if (g_key_file_load_from_data(kf, text, g_array_index(ends, gsize, mid - 1), G_KEY_FILE_NONE, NULL))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (hi) { /* the whole text fails for some other reason: no line then */
		g_autoptr(GKeyFile) kf = g_key_file_new();
		if (g_key_file_load_from_data(kf, text, g_array_index(ends, gsize, hi - 1), G_KEY_FILE_NONE, NULL))
			return 0;
	}
	return (int)hi;
}

static gboolean bad(GError **error, const char *path, const char *text, const char *group,
		    const char *key, const char *why)
{
	g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE, "%s:%d: [%s] %s: %s", path,
		    line_of(text, group, key), group, key, why);
	return FALSE;
}

static char *get_string(GKeyFile *kf, const char *group, const char *key)
{
	return g_key_file_has_key(kf, group, key, NULL) ? g_key_file_get_string(kf, group, key, NULL) : NULL;
}

static char **get_list(GKeyFile *kf, const char *group, const char *key)
{
	return g_key_file_has_key(kf, group, key, NULL) ? g_key_file_get_string_list(kf, group, key, NULL, NULL) : NULL;
}

/* A whole decimal number from min to max into *out (left alone when the key
 * is absent); FALSE when it is anything else. */
static gboolean get_int(GKeyFile *kf, const char *group, const char *key, long min, long max, int *out)
{
	g_autofree char *v = NULL;
	char *end;
	long n;

	if (!g_key_file_has_key(kf, group, key, NULL))
		return TRUE;
	v = g_key_file_get_string(kf, group, key, NULL);
	n = strtol(v ? v : "", &end, 10);
	if (!v || !*v || *end || n < min || n > max)
		return FALSE;
	*out = (int)n;
	return TRUE;
}

void cli_config_print_warnings(const char *prog, const GString *warnings)
{
	g_auto(GStrv) lines = g_strsplit(warnings->str, "\n", -1);

	for (char **l = lines; *l; l++)
		if (**l)
			fprintf(stderr, "%s: %s\n", prog, cli_shown(*l));
}

gboolean cli_config_load(const char *path, struct cli_config *cfg, GString *warnings, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree char *text = NULL;
	g_auto(GStrv) groups = NULL;
	g_autoptr(GError) e = NULL;
	const char *file = path ? path : CLI_CONFIG_DEFAULT;
	size_t len;
	int r;

	memset(cfg, 0, sizeof(*cfg));
	cfg->log_level = -1;
	cfg->max_parallel = -1;
	cfg->handler_timeout = -1;
	cfg->coldplug_timeout = -1;
	/* bounded (READ_FILE_CONFIG_MAX, modalias.conf(5)), never blocking: a
	 * regular file, or the null device (/dev/null: no settings), its kind
	 * checked before it is opened */
	r = read_file(file, READ_FILE_CONFIG_MAX, READ_FILE_NULL | READ_FILE_NO_KERNEL_FS, &text, &len);
	if (r < 0) {
		char why[64];

		if (!path && r == -ENOENT)
			return TRUE; /* no default file: defaults */
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(-r), "%s%s: %s", path ? "--settings " : "", file,
			    read_file_error(r, READ_FILE_CONFIG_MAX, why, sizeof(why)));
		return FALSE;
	}
	if (!g_key_file_load_from_data(kf, text, len, G_KEY_FILE_NONE, &e)) {
		int line = parse_error_line(text, len);

		if (line)
			g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_PARSE, "%s:%d: %s", file, line, e->message);
		else
			g_set_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_PARSE, "%s: %s", file, e->message);
		return FALSE;
	}
	cfg->path = g_strdup(file);
	/* unknown groups and keys: warned, with the line, and ignored */
	groups = g_key_file_get_groups(kf, NULL);
	for (char **g = groups; *g; g++) {
		const struct known *k = NULL;
		g_auto(GStrv) keys = g_key_file_get_keys(kf, *g, NULL, NULL);

		for (size_t i = 0; i < G_N_ELEMENTS(known); i++)
			if (strcmp(known[i].group, *g) == 0)
				k = &known[i];
		if (!k) {
			g_string_append_printf(warnings, "%s:%d: unknown group [%s], ignored\n", file,
					       line_of(text, *g, NULL), *g);
			continue;
		}
		for (char **key = keys; key && *key; key++) {
			g_autofree char *v = NULL;
			bool ok = false;

			for (size_t i = 0; k->keys[i]; i++)
				if (strcmp(k->keys[i], *key) == 0)
					ok = true;
			if (!ok) {
				g_string_append_printf(warnings, "%s:%d: unknown key '%s' in [%s], ignored\n", file,
						       line_of(text, *g, *key), *key, *g);
				continue;
			}
			/* a value GKeyFile cannot give (not UTF-8) is no value: an
			 * error, never a key passed over in silence */
			v = g_key_file_get_string(kf, *g, *key, NULL);
			if (!v)
				return bad(error, file, text, *g, *key, "not UTF-8 text");
		}
	}
	cfg->root = get_string(kf, "modules", "root");
	cfg->version = get_string(kf, "modules", "version");
	cfg->directory = get_string(kf, "modules", "directory");
	cfg->modprobe_d = get_list(kf, "modules", "modprobe.d");
	cfg->tables = get_list(kf, "modules", "tables");
	cfg->blacklist = get_list(kf, "modules", "blacklist");
	cfg->blacklist_line = cfg->blacklist ? line_of(text, "modules", "blacklist") : 0;
	cfg->cache = get_string(kf, "modules", "cache");
	cfg->hotplug_dir = get_string(kf, "agent", "hotplug-dir");
	cfg->sysfs = get_string(kf, "agent", "sysfs");
	cfg->coldplug = get_string(kf, "agent", "coldplug");
	{
		static const char *const paths[][2] = {
			{ "modules", "root" }, { "modules", "directory" }, { "agent", "hotplug-dir" }, { "agent", "sysfs" },
		};
		const char *values[] = { cfg->root, cfg->directory, cfg->hotplug_dir, cfg->sysfs };
		for (size_t i = 0; i < G_N_ELEMENTS(values); i++)
			if (values[i] && values[i][0] != '/')
				return bad(error, file, text, paths[i][0], paths[i][1], "not an absolute path");
	}
	for (char **t = cfg->tables; t && *t; t++)
		if (**t != '/')
			return bad(error, file, text, "modules", "tables", "not an absolute path");
	if (cfg->version && (!*cfg->version || strchr(cfg->version, '/')))
		return bad(error, file, text, "modules", "version", "not a kernel version");
	if (g_key_file_has_key(kf, "log", "level", NULL)) {
		g_autofree char *v = g_key_file_get_string(kf, "log", "level", NULL);
		cfg->log_level = cli_log_level_parse(v);
		if (cfg->log_level < 0)
			return bad(error, file, text, "log", "level", "not err, warning, notice, info, debug or 0-7");
	}
	if (!get_int(kf, "agent", "max-parallel", 1, 1024, &cfg->max_parallel))
		return bad(error, file, text, "agent", "max-parallel", "not a number from 1 to 1024");
	if (!get_int(kf, "agent", "handler-timeout", 1, CLI_HANDLER_TIMEOUT_MAX, &cfg->handler_timeout))
		return bad(error, file, text, "agent", "handler-timeout",
			   "not a number of seconds from 1 to " G_STRINGIFY(CLI_HANDLER_TIMEOUT_MAX));
	if (!get_int(kf, "agent", "coldplug-timeout", 1, CLI_COLDPLUG_TIMEOUT_MAX, &cfg->coldplug_timeout))
		return bad(error, file, text, "agent", "coldplug-timeout",
			   "not a number of seconds from 1 to " G_STRINGIFY(CLI_COLDPLUG_TIMEOUT_MAX));
	if (cfg->coldplug && strcmp(cfg->coldplug, "trigger") != 0 && strcmp(cfg->coldplug, "resolve") != 0)
		return bad(error, file, text, "agent", "coldplug", "neither 'trigger' nor 'resolve'");
	/* the files named must be readable now, not at the first event, and
	 * trusted (cli_table_open(): the one policy, applied again wherever
	 * they are read): the agent runs as root on every event */
	for (char **t = cfg->tables; t && *t; t++) {
		g_autofree char *why = NULL;
		int fd = cli_table_open(*t, &why);

		/* each message names the table: the key may list several */
		if (fd < 0)
			return bad(error, file, text, "modules", "tables", why);
		close(fd);
	}
	return TRUE;
}

void cli_config_clear(struct cli_config *cfg)
{
	g_free(cfg->path);
	g_free(cfg->root);
	g_free(cfg->version);
	g_free(cfg->directory);
	g_strfreev(cfg->modprobe_d);
	g_strfreev(cfg->tables);
	g_strfreev(cfg->blacklist);
	g_free(cfg->cache);
	g_free(cfg->hotplug_dir);
	g_free(cfg->sysfs);
	g_free(cfg->coldplug);
	memset(cfg, 0, sizeof(*cfg));
}

bool cli_config_is_settings(const char *path)
{
	g_autofree char *text = NULL;
	const char *p;

	if (read_file(path, READ_FILE_CONFIG_MAX, READ_FILE_NO_KERNEL_FS, &text, NULL) < 0)
		return false; /* a directory, /dev/null: modprobe.d's reader says */
	for (p = text; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != '\0')) {
		p += strspn(p, " \t");
		if (*p != '\n' && *p != '#' && *p != ';')
			return *p == '[';
	}
	return false;
}
