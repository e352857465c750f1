/*
 * cli/cli-tables.h - the module tables both front ends open, one way: the
 * module directory as modprobe spells it (-d ROOT, -S VERSION, -m DIR, or
 * modalias.conf's [modules]), the index cache policy, the modprobe.d
 * paths, modalias.conf's extra tables= and blacklist=, and libkmod's
 * loader over the same directory.
 *
 * This code decides where tables come from and says what went wrong
 * through the caller's report function; it may not print, exit, or know
 * which program or command it serves.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <stdbool.h>
#include <sys/utsname.h>

#include <glib.h>

#include "cli-config.h"
#include "libmodalias.h"

/* Where the module tables come from, as the command line says (GOption
 * fills these: each NULL or FALSE when not given). */
struct cli_tables_spec {
	char *root;         /* -d ROOT: modules in ROOT/lib/modules/VERSION */
	char *version;      /* -S VERSION (default: the running kernel's) */
	char *moddir;       /* -m DIR: the module directory itself */
	char *modprobe_d;   /* -C: a modprobe.d file or directory; /dev/null: none */
	gboolean no_cache;  /* --no-cache */
};

void cli_tables_spec_clear(struct cli_tables_spec *spec);

/* The module directory: -m; else -d/-S (either given: modalias.conf's
 * directory= no longer applies); else directory=; else
 * ROOT/lib/modules/VERSION with modalias.conf's root= and version=, "/" and
 * uname -r by default. */
char *cli_module_dir(const struct cli_tables_spec *spec, const struct cli_config *cfg);

/* The kernel version whose tables cli_module_dir() names: -S, else
 * modalias.conf's version=, else uname -r; NULL for a directory named
 * itself (-m, directory=), whose kernel is not known */
char *cli_module_version(const struct cli_tables_spec *spec, const struct cli_config *cfg);

/* This machine's uname(), asked once (the release and the machine every
 * command and the agent compare with): NULL when it failed */
const struct utsname *cli_uname(void);

/* Whether a module directory was named at all (on the command line or in
 * modalias.conf), rather than taken for the running kernel. */
bool cli_module_dir_named(const struct cli_tables_spec *spec, const struct cli_config *cfg);

/* Where index caches go, NULL for none: --no-cache none; modalias.conf's
 * cache= ("": none); $MODALIAS_CACHE_DIR ("": none); /var/cache/modalias
 * for root, else the user's cache directory (~/.cache/modalias). */
char *cli_cache_dir(const struct cli_tables_spec *spec, const struct cli_config *cfg);

/* The modprobe.d paths to read: -C, else modalias.conf's modprobe.d=, else
 * NULL (the system's).  *none: nothing is to be read at all (-C
 * /dev/null).  BUF holds -C's array. */
const char *const *cli_modprobe_paths(const struct cli_tables_spec *spec, const struct cli_config *cfg,
				      const char *buf[2], bool *none);

/* How a problem is told: MESSAGE, one line without its newline, at a
 * syslog PRIORITY (LOG_ERR: the tables are not what was asked for;
 * LOG_INFO: a detail). */
typedef void (*cli_report_fn)(void *data, int priority, const char *message);

enum cli_tables_flags {
	/* also libkmod's loader over the same module directory and modprobe.d
	 * paths, with modalias.conf's blacklist */
	CLI_TABLES_LOADER = 1 << 0,
	/* a modprobe.d configuration or an extra table that cannot be read is
	 * reported and the rest used (the agent: an event still runs its
	 * handlers); without it, any failure fails the whole */
	CLI_TABLES_GO_ON = 1 << 1,
	/* modules are to be inserted from them (load): never the bundled
	 * table where no module directory is, which has no modules and is no
	 * kernel's here */
	CLI_TABLES_INSERT = 1 << 2,
	/* root acts on them (the agent, load): modalias.conf's modprobe.d=
	 * paths and the module directory its directory=, root= or version=
	 * name must pass cli_tables_trusted(); the command line's -C, -m, -d
	 * and -S are the caller's own choice, as modprobe's are */
	CLI_TABLES_TRUSTED = 1 << 3,
};

/* Whether modalias.conf's modprobe.d= paths (when -C does not replace
 * them) and DIR, the module directory (when modalias.conf's directory=,
 * root= or version= named it; NULL: not checked), may be acted on as root:
 * each path and every directory above it root's or this user's and
 * writable by nobody else (shared/path-trust.h), and so is what is in a
 * directory: the files kmod reads in a modprobe.d directory (symlinks
 * followed and checked; a mask to /dev/null will do), every file and
 * subdirectory directly in the module directory (its symlinks, kmod's
 * build and source, are passed over).  A path that is not there passes:
 * whoever reads it says so.  0, or a negative errno with the path and why
 * reported at LOG_ERR (REPORT may be NULL: nothing said). */
int cli_tables_trusted(const struct cli_tables_spec *spec, const struct cli_config *cfg, const char *dir,
		       cli_report_fn report, void *data);

/* modalias.conf's tables=: the one policy of an extra table.  PATH opened
 * (O_PATH) by the trust walk: it and every directory above it, the targets
 * of symlinks included, root's or this user's and writable by no one else,
 * a regular file this user may read.  The descriptor, or a negative errno
 * with *WHY (g_free) naming PATH and why, in the words of modalias.conf(5)'s
 * messages ("a table file owned by another user (PATH)"). */
int cli_table_open(const char *path, char **why);

/* The table at PATH read whole (64 MiB at most) from cli_table_open()'s
 * descriptor, never by its path again: 0 with *TEXT (free()) and *LEN, or
 * a negative errno with *WHY as cli_table_open()'s. */
int cli_table_read(const char *path, char **text, size_t *len, char **why);

/* A libkmod loader of DIR as the tables' one is made (modprobe.d as SPEC
 * and CFG say, CFG's blacklist): 0 or a negative errno */
int cli_loader_new(struct modalias_ctx *ctx, const struct cli_tables_spec *spec, const struct cli_config *cfg,
		   const char *dir, struct modalias_loader **ret);

struct cli_tables {
	char *dir;                      /* the module directory read */
	char *version;                  /* the kernel release it was named by (-S, the
					   snapshot's, uname -r); NULL for a directory
					   named itself or the bundled table */
	struct modalias_table *table;
	struct modalias_loader *loader; /* with CLI_TABLES_LOADER */
	bool bundled;                   /* the bundled table, for want of the machine's
					   (set by the caller): index files, no modules */
	bool foreign;                   /* not the kernel of the machine asked about
					   (set by the caller): the table cannot tell
					   what that kernel has */
};

/*
 * Opens the tables of DIR (NULL: cli_module_dir()) with the cache of
 * cli_cache_dir(), then modprobe.d, modalias.conf's tables= and blacklist=.
 * 0 with *out filled, or a negative errno with *out empty, the reason
 * reported.
 */
int cli_tables_open(struct modalias_ctx *ctx, const struct cli_tables_spec *spec, const char *dir,
		    const struct cli_config *cfg, unsigned int flags, cli_report_fn report, void *data,
		    struct cli_tables *out);

void cli_tables_close(struct cli_tables *t);

/* Whether A and B name one module: kmod's rule, '-' and '_' are one */
bool cli_same_module(const char *a, const char *b);
