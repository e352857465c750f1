/*
 * libmodalias - the modprobe.d files libkmod reads, in its order; and
 * where a "blacklist" line is among them.  libkmod says which modules are
 * blacklisted (table.c asks it) but not where; this file only finds the
 * file and line to tell, and decides nothing.  modprobe-d-copy.c checks
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

/* Whether LINE (LEN bytes) is "blacklist MODULE" ('-' and '_' alike) */
static bool blacklists(const char *line, size_t len, const char *module)
{
	const char *end = line + len, *w;
	size_t ml = strlen(module);

	line = skip_blanks(line, end);
	if ((size_t)(end - line) < 10 || strncmp(line, "blacklist", 9) != 0 || (line[9] != ' ' && line[9] != '\t'))
		return false;
	w = line = skip_blanks(line + 10, end); /* after "blacklist" and its blank */
	while (line < end && *line != ' ' && *line != '\t' && *line != '\r')
		line++;
	if ((size_t)(line - w) != ml)
		return false;
	for (size_t i = 0; i < ml; i++)
		if ((w[i] == '-' ? '_' : w[i]) != (module[i] == '-' ? '_' : module[i]))
			return false;
	return true;
}

int modprobe_d_blacklist_where(const char *const *paths, const char *module, char **file, unsigned int *line)
{
	struct modprobe_d_file *files;
	size_t n;
	int r = modprobe_d_list(paths, &files, &n);

	*file = NULL;
	*line = 0;
	for (size_t i = 0; r >= 0 && i < n && !*file; i++) {
		char *buf;
		size_t len;
		unsigned int no = 0;

		if (read_file(files[i].path, READ_FILE_CONFIG_MAX, READ_FILE_NO_KERNEL_FS, &buf, &len) < 0)
			continue;
		for (const char *s = buf, *e; s < buf + len; s = e + 1) {
			e = memchr(s, '\n', (size_t)(buf + len - s));
			if (!e)
				e = buf + len;
			no++;
			if (blacklists(s, (size_t)(e - s), module)) {
				*file = strdup(files[i].path);
				*line = no;
				break;
			}
		}
		free(buf);
	}
	modprobe_d_list_free(files, n);
	if (r >= 0 && !*file)
		r = -ENOENT;
	return r;
}
