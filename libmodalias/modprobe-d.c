/*
 * libmodalias - the modprobe.d files libkmod reads, in its order; and
 * where a "blacklist", "alias", "install" or "remove" line is among them.
 * libkmod says which modules are blacklisted and which aliases it has
 * (table.c asks it) but not where; this file only finds the file and line
 * to tell, and decides nothing.  modprobe-d-copy.c checks
 * and copies the same files for libkmod.
 *
 * libkmod's order (kmod 30, libkmod-config.c conf_files_list()): each
 * configuration path is a file, read as it is, or a directory whose
 * "*.conf" and "*.alias" files (not hidden, not directories) are read; all
 * of them in order of file name, a name in an earlier path masking the
 * same name in later ones.  Without paths, libkmod's own
 * (libkmod.c default_config_paths[]), below.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "libmodalias-private.h"
#include "read-file.h"

static const char *const kmod_default_paths[] = {
	"/etc/modprobe.d",
	"/run/modprobe.d",
	"/usr/local/lib/modprobe.d",
	"/lib/modprobe.d",
	NULL,
};

static bool wanted(const char *fn)
{
	size_t len = strlen(fn);

	if (fn[0] == '.')
		return false;
	return (len >= 5 && strcmp(fn + len - 5, ".conf") == 0) || (len >= 6 && strcmp(fn + len - 6, ".alias") == 0);
}

static int by_name(const void *a, const void *b)
{
	const struct modprobe_d_file *x = a, *y = b;
	return strcmp(x->name, y->name);
}

/* Adds NAME (in PATH) unless an earlier path has it */
static int add_file(struct modprobe_d_file **files, size_t *n, const char *name, const char *path, bool single)
{
	struct modprobe_d_file *f;

	for (size_t i = 0; i < *n; i++)
		if (strcmp((*files)[i].name, name) == 0)
			return 0;
	f = realloc(*files, (*n + 1) * sizeof(**files));
	if (!f)
		return -ENOMEM;
	*files = f;
	f[*n].name = strdup(name);
	f[*n].path = strdup(path);
	f[*n].single = single;
	if (!f[*n].name || !f[*n].path) {
		free(f[*n].name);
		free(f[*n].path);
		return -ENOMEM;
	}
	(*n)++;
	return 0;
}

int modprobe_d_list(const char *const *paths, struct modprobe_d_file **files, size_t *n)
{
	int r = 0;

	*files = NULL;
	*n = 0;
	if (!paths)
		paths = kmod_default_paths;

	for (size_t p = 0; r >= 0 && paths[p]; p++) {
		struct stat st;
		DIR *d;
		struct dirent *de;

		if (stat(paths[p], &st) < 0)
			continue;
		if (!S_ISDIR(st.st_mode)) {
			const char *base = strrchr(paths[p], '/');
			r = add_file(files, n, base ? base + 1 : paths[p], paths[p], true);
			continue;
		}
		if (!(d = opendir(paths[p])))
			continue;
		while (r >= 0 && (de = readdir(d))) {
			char *path;

			if (!wanted(de->d_name))
				continue;
			if (asprintf(&path, "%s/%s", paths[p], de->d_name) < 0) {
				r = -ENOMEM;
				break;
			}
			if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode))
				r = add_file(files, n, de->d_name, path, false);
			free(path);
		}
		closedir(d);
	}
	if (*n)
		qsort(*files, *n, sizeof(**files), by_name);
	if (r < 0) {
		modprobe_d_list_free(*files, *n);
		*files = NULL;
		*n = 0;
	}
	return r;
}

void modprobe_d_list_free(struct modprobe_d_file *files, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(files[i].name);
		free(files[i].path);
	}
	free(files);
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* The next word of [*P, END) (blanks before it passed, as kmod's
 * strtok_r(" \t")), *P after it; its length, 0 when none */
static size_t next_word(const char **p, const char *end, const char **word)
{
	const char *w = skip_blanks(*p, end), *q = w;

	while (q < end && *q != ' ' && *q != '\t' && *q != '\r')
		q++;
	*word = w;
	*p = q;
	return (size_t)(q - w);
}

/* Whether the word W (LEN bytes) is NAME as libkmod keeps it: each '-'
 * outside brackets read as '_' (libkmod-config.c underscores()); NAME is
 * so already, or '-' and '_' alike in it */
static bool same_name(const char *w, size_t len, const char *name)
{
	bool in_brackets = false;

	if (strlen(name) != len)
		return false;
	for (size_t i = 0; i < len; i++) {
		char a = w[i], b = name[i];

		if (a == '[')
			in_brackets = true;
		else if (a == ']')
			in_brackets = false;
		if (!in_brackets && a == '-')
			a = '_';
		if (!in_brackets && b == '-')
			b = '_';
		if (a != b)
			return false;
	}
	return true;
}

/* Whether LINE (LEN bytes) is "COMMAND NAME", and MODULE after it unless
 * NULL; an "install" or "remove" line only with its command after NAME, a
 * blank and something (libkmod ignores one without: strtok_r(" \t") then
 * strtok_r("\0"), so it is no entry to give a line) */
static bool says(const char *line, size_t len, const char *command, const char *name, const char *module)
{
	const char *end = line + len, *w;
	size_t wl = next_word(&line, end, &w);

	if (wl != strlen(command) || strncmp(w, command, wl) != 0)
		return false;
	wl = next_word(&line, end, &w);
	if (!wl || !same_name(w, wl, name))
		return false;
	if (strcmp(command, "install") == 0 || strcmp(command, "remove") == 0)
		return end - line >= 2 && (*line == ' ' || *line == '\t');
	if (!module)
		return true;
	wl = next_word(&line, end, &w);
	return wl && same_name(w, wl, module);
}

struct modprobe_d_where {
	struct modprobe_d_file *files;
	size_t n;
	char **text; /* each file's, NULL when it cannot be read */
	size_t *len;
	bool **found; /* each file's, a line already found */
};

/* The number of lines of TEXT (LEN bytes), as modprobe_d_where_find()
 * counts them: one more than its newlines */
static size_t count_lines(const char *text, size_t len)
{
	size_t n = 1;

	for (const char *s = text; s && (s = memchr(s, '\n', (size_t)(text + len - s))); s++)
		n++;
	return n;
}

int modprobe_d_where_open(const char *const *paths, struct modprobe_d_where **ret)
{
	struct modprobe_d_where *w = calloc(1, sizeof(*w));
	int r;

	*ret = NULL;
	if (!w)
		return -ENOMEM;
	r = modprobe_d_list(paths, &w->files, &w->n);
	if (r >= 0 && w->n) {
		w->text = calloc(w->n, sizeof(*w->text));
		w->len = calloc(w->n, sizeof(*w->len));
		w->found = calloc(w->n, sizeof(*w->found));
		if (!w->text || !w->len || !w->found)
			r = -ENOMEM;
	}
	for (size_t i = 0; r >= 0 && i < w->n; i++) {
		if (read_file(w->files[i].path, READ_FILE_CONFIG_MAX, READ_FILE_NO_KERNEL_FS, &w->text[i], &w->len[i]) < 0) {
			w->text[i] = NULL;
			continue;
		}
		w->found[i] = calloc(count_lines(w->text[i], w->len[i]), sizeof(**w->found));
		if (!w->found[i])
			r = -ENOMEM;
	}
	if (r < 0) {
		modprobe_d_where_free(w);
		return r;
	}
	*ret = w;
	return 0;
}

void modprobe_d_where_free(struct modprobe_d_where *w)
{
	if (!w)
		return;
	for (size_t i = 0; w->text && i < w->n; i++)
		free(w->text[i]);
	for (size_t i = 0; w->found && i < w->n; i++)
		free(w->found[i]);
	free(w->text);
	free(w->found);
	free(w->len);
	modprobe_d_list_free(w->files, w->n);
	free(w);
}

int modprobe_d_where_find(struct modprobe_d_where *w, const char *command, const char *name,
			  const char *module, const char **file, unsigned int *line)
{
	*file = NULL;
	*line = 0;
	for (size_t i = 0; w && i < w->n; i++) {
		const char *buf = w->text[i];
		unsigned int no = 0;

		for (const char *s = buf, *e; buf && s < buf + w->len[i]; s = e + 1) {
			e = memchr(s, '\n', (size_t)(buf + w->len[i] - s));
			if (!e)
				e = buf + w->len[i];
			no++;
			if (!w->found[i][no - 1] && says(s, (size_t)(e - s), command, name, module)) {
				w->found[i][no - 1] = true;
				*file = w->files[i].path;
				*line = no;
				return 0;
			}
		}
	}
	return -ENOENT;
}
