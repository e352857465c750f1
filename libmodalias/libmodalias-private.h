/*
 * libmodalias internals: shared by the library's sources and its tests
 * (through the uninstalled twin library), never installed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <syslog.h>

#include "libmodalias.h"

#include "macro.h"
#include "ctx.h"

/* ---- growable strings ------------------------------------------------- */

struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
	bool oom; /* sticky: one failed allocation fails the whole buffer */
};

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
bool strbuf_reserve(struct strbuf *sb, size_t extra);
void strbuf_putc(struct strbuf *sb, char c);
void strbuf_puts(struct strbuf *sb, const char *s);
void strbuf_putn(struct strbuf *sb, const char *s, size_t n);
void strbuf_printf(struct strbuf *sb, const char *fmt, ...) _printf_(2, 3);
/* Hands the string over (NUL-terminated, never NULL on success). */
int strbuf_steal(struct strbuf *sb, char **ret);

/* ---- small helpers ---------------------------------------------------- */

/* Parses [0x]HEX fully; -EINVAL when not hex, -ERANGE when above max. */
int parse_hex(const char *s, size_t len, uint64_t max, uint64_t *ret);
/* Parses decimal fully; same errors. */
int parse_dec(const char *s, size_t len, uint64_t max, uint64_t *ret);
/* Reads a whole (small) regular file, at most max bytes: read_file() of
 * shared/read-file.h and its errors (-EFBIG, -EINVAL: not a regular file,
 * …), and -EBADMSG when the text holds a NUL byte.  Strips one trailing
 * newline. */
int read_text_file(const char *path, char **ret, size_t max);
/* A DEVPATH that stays below the sysfs root: absolute, no ".." component
 * (a trailing "/.." too: ROOT/../type is outside it), shorter than PATH_MAX. */
bool devpath_is_safe(const char *devpath);
/* The PCMCIA product-id hash: the kernel's crc32(0, s, len). */
uint32_t pcmcia_crc32(const char *s, size_t len);
/* SHA-256 of LEN bytes at DATA into OUT (sha256.c) */
void sha256(const void *data, size_t len, unsigned char out[32]);

/* Buses and devices (the bus table, struct modalias_dev, field values):
 * bus-private.h, which the files that use them include. */

/* ---- sysfs ------------------------------------------------------------ */

/* Rebuilds a device's modalias from its id attributes (dir is the full
 * path); -ENODATA when it is of no bus that has them. */
int sysfs_rebuild(struct modalias_ctx *ctx, const char *dir, struct modalias_dev **ret);
/* The last component of the target of the link PATH, read (never
 * followed), malloc'ed; NULL when PATH is no link (sysfs-driver.c) */
char *sysfs_link_name(const char *path);
/* The basename of DEVPATH's "subsystem" link, malloc'ed, or NULL
 * (sysfs-driver.c) */
char *sysfs_subsystem_of(struct modalias_ctx *ctx, const char *devpath);
/* The value of KEY's line (KEY=VALUE) in the text of a uevent file,
 * pointing into UEVENT, whose lines it ends with '\0'; NULL when it has
 * none (sysfs-driver.c) */
char *uevent_value(char *uevent, const char *key);
/* MODULE with each '_' written '-', malloc'ed (NULL: out of memory): the
 * name a built-in driver of the module may have (virtio-pci), as
 * modalias_sysfs_is_module_builtin() and a snapshot's answer ask it
 * (sysfs-driver.c) */
char *module_name_dashed(const char *module);

/* ---- glob matching (glob.c) ------------------------------------------- */

/* fnmatch(pattern, s, 0) == 0 in the C locale, without libc. */
bool glob_match(const char *pattern, const char *s);
/* Patterns with "[:", "[=" or "[." inside brackets go to fnmatch(3). */
bool glob_needs_libc(const char *pattern);
bool glob_match_libc(const char *pattern, const char *s);

/* ---- modprobe.d (modprobe-d.c, modprobe-d-copy.c) ---------------------- */

/* The files libkmod reads with PATHS (NULL: its default directories), in
 * its order (by file name; a name in an earlier path masks the same name
 * in later ones): "*.conf" and "*.alias" files of each directory, not
 * hidden, not directories, and each path that is no directory. */
struct modprobe_d_file {
	char *name; /* the file name, by which the order goes */
	char *path;
	bool single; /* a path named, not found in a directory: read whatever its name */
};
int modprobe_d_list(const char *const *paths, struct modprobe_d_file **files, size_t *n);
void modprobe_d_list_free(struct modprobe_d_file *files, size_t n);

/* libkmod's kmod_new() with the configuration PATHS (NULL: the system's,
 * read by libkmod itself).  Named paths are read here first and handed to
 * libkmod as a checked copy (modprobe-d-copy.c), *COPY, which the caller
 * keeps while the context may revalidate and frees with
 * modprobe_d_copy_free().  DIR/modules.softdep and DIR/modules.weakdep,
 * which libkmod reads too, are checked in place.  0, or a negative errno, logged naming the
 * file and line. */
struct kmod_ctx;
struct modprobe_d_copy;
int modprobe_d_kmod_new(struct modalias_ctx *ctx, const char *dir, const char *const *paths,
			struct kmod_ctx **kctx, struct modprobe_d_copy **copy);
void modprobe_d_copy_free(struct modprobe_d_copy *copy);
/* Whether a named path of the copy changed since (its modification time,
 * as libkmod stamps its configuration paths) */
bool modprobe_d_copy_stale(const struct modprobe_d_copy *copy);

/* The modprobe.d files libkmod reads with PATHS (NULL: its default
 * directories), read once to tell where a line of theirs is.  0 or
 * -ENOMEM; a file that cannot be read has no lines. */
struct modprobe_d_where;
int modprobe_d_where_open(const char *const *paths, struct modprobe_d_where **w);
void modprobe_d_where_free(struct modprobe_d_where *w);
/* The first line of W's files, in libkmod's order, that says "COMMAND
 * NAME" ("blacklist MODULE", "install MODULE COMMAND..."; an install or
 * remove line without its command libkmod ignores), with MODULE after NAME
 * unless MODULE is NULL ("alias PATTERN MODULE"), and that no earlier call
 * found; names compared as libkmod keeps them, '-' outside brackets as
 * '_'.  *FILE (W's) and *LINE; -ENOENT when none does.  libkmod keeps each
 * line as an entry of its own, in this order: asked once per entry, in
 * libkmod's order, the n-th entry of a name is given the n-th line that
 * says it (a line given twice, in one file or two, each its own). */
int modprobe_d_where_find(struct modprobe_d_where *w, const char *command, const char *name,
			  const char *module, const char **file, unsigned int *line);

/* ---- module names (table.c) ------------------------------------------- */

/* 0 when the first len bytes of name (or up to its NUL) can be a module's
 * name, as libkmod takes it (at most NAME_MAX bytes, no '/', no control
 * character, not empty once normalised); else -ENAMETOOLONG, or -EINVAL
 * with why set to the reason.  Tables, configs and the loader all ask it. */
int module_name_check(const char *name, size_t len, const char **why);
