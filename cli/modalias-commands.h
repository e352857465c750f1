/*
 * cli/modalias-commands.h - the modalias commands: each command's entry
 * point (one file each: modalias-build.c, …), and what the commands share
 * (modalias-options.c: the option rules; modalias-setup.c: the context
 * and the module tables).
 *
 * Nothing here may be used by the hotplug agent; what both programs need
 * is in libcli (cli-*.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#pragma once

#include <stdbool.h>
#include <string.h>

#include <glib.h>

#include "cli-columns.h"
#include "cli-config.h"
#include "cli-devices.h"
#include "cli-exit.h"
#include "cli-output.h"
#include "cli-state.h"
#include "cli-tables.h"
#include "libmodalias.h"

/* At most this much of an argument or an alias is echoed in a message (the
 * library's own limit, where an alias may be a 1 MiB line), escaped: it may
 * come from a file. */
#define ECHO_MAX 200
#define ECHO(s) cli_echo((s), ECHO_MAX)

/* ---- the commands: each returns its exit status (cli-exit.h) ---------------- */

int cmd_build(int argc, char **argv);
int cmd_parse(int argc, char **argv);
int cmd_resolve(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_map(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_firmware(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);

/* ---- modalias-options.c: the option rules of every command ------------------ */

/* -v given, counted (twice: debug messages) */
extern int verbosity;
/* --settings FILE (before or after the command): modalias.conf; NULL:
 * the default file */
extern const char *settings_file;

/* -q/--quiet given: once the options are parsed, standard output goes to
 * /dev/null (nothing printed, the exit status only); what is no error (a
 * summary, "no module") is not said on standard error either */
extern bool quiet;
gboolean opt_quiet(const char *name, const char *value, gpointer data, GError **error);
#define QUIET_OPTION_ENTRY                                                                       \
	{ "quiet", 'q', G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK, (gpointer)opt_quiet,        \
	  "Print nothing: the exit status only (errors still on standard error)", NULL }

/* --width=N given (list, diff): N, at least CLI_WIDTH_MIN; else 0.  Another
 * value is a usage error naming the minimum. */
extern size_t width_option;
gboolean opt_width(const char *name, const char *value, gpointer data, GError **error);
#define WIDTH_OPTION_ENTRY(what)                                                                 \
	{ "width", 'w', 0, G_OPTION_ARG_CALLBACK, (gpointer)opt_width,                            \
	  "Align the columns and cut " what " to fit N columns (" CLI_WIDTH_MIN_TEXT              \
	  " or more), as on a terminal", "N" }

/* --word-bits=32|64 given (map, build): the word size of the kernel whose
 * bitmaps are read, which new_ctx() sets; else 0 (the bitmaps tell, else
 * this machine's).  Another value is a usage error naming the option. */
extern unsigned int word_bits_option;
gboolean opt_word_bits(const char *name, const char *value, gpointer data, GError **error);
#define WORD_BITS_OPTION_ENTRY(what, said)                                                       \
	{ "word-bits", 0, 0, G_OPTION_ARG_CALLBACK, (gpointer)opt_word_bits,                      \
	  "Read the input bitmaps of " what " as words of N bits (32 or 64: the kernel's long); "  \
	  "default: 64 where a word is wider than 32 bits, else this machine's (" said ")", "N" }

/* Parses the options of command CMD (ENTRIES, -v and --settings): '--'
 * ends them, an unknown option is a usage error naming it, a flag given a
 * value too; then reads modalias.conf into config; exits 2 on a usage
 * error or a modalias.conf that cannot be read.  After '--', every argument is the command's,
 * whatever it starts with. */
void parse_options(const char *cmd, const char *params, const char *summary, const GOptionEntry *entries,
		   int *argc, char ***argv);

/* "modalias CMD: MESSAGE" and the pointer to --help on standard error;
 * returns the usage exit status (2) for the caller to return.  What the
 * message quotes is escaped by the caller (ECHO(), cli_shown()), as for
 * every message (escaped twice, a backslash would be shown \\\\). */
int usage_error(const char *cmd, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* The options that say which module tables to read, into a struct
 * cli_tables_spec */
#define TABLE_OPTION_ENTRIES(spec)                                                              \
	{ "dirname", 'd', 0, G_OPTION_ARG_FILENAME, &(spec).root,                               \
	  "Modules are in DIR/lib/modules/VERSION (default /)", "DIR" },                         \
	{ "set-version", 'S', 0, G_OPTION_ARG_FILENAME, &(spec).version,                           \
	  "Kernel version (default: uname -r)", "VERSION" },                                     \
	{ "config", 'C', 0, G_OPTION_ARG_FILENAME, &(spec).modprobe_d,                           \
	  "modprobe.d file or directory to read instead of the system's (/dev/null: none)", "FILE" }, \
	{ "moddir", 'm', 0, G_OPTION_ARG_FILENAME, &(spec).moddir,                               \
	  "The module directory itself (overrides -d and -S)", "DIR" },                          \
	{ "no-cache", 0, 0, G_OPTION_ARG_NONE, &(spec).no_cache,                                 \
	  "Neither read nor write the index cache ($MODALIAS_CACHE_DIR)", NULL }

/* The options that say where devices come from; open them with
 * open_devices() */
struct device_source {
	char *sysfs;
	char *snapshot;
};

#define DEVICE_OPTION_ENTRIES(src)                                                               \
	{ "sysfs", 0, 0, G_OPTION_ARG_FILENAME, &(src).sysfs, "Sysfs root (default /sys)", "DIR" }, \
	{ "snapshot", 0, 0, G_OPTION_ARG_FILENAME, &(src).snapshot,                              \
	  "Read the devices from this snapshot file (modalias snapshot) instead of sysfs", "FILE" }

/* ---- modalias-setup.c: what a command starts from --------------------------- */

/* The settings of modalias.conf (--settings), read by parse_options() */
extern struct cli_config config;

/* The library context: its log on standard error ("modalias: …"), at -v's
 * level or modalias.conf's, with this sysfs root (NULL: /sys) and the word
 * size of --word-bits; exits 2 when it cannot be made. */
struct modalias_ctx *new_ctx(const char *sysfs);

/* The context (new_ctx() with SRC's sysfs root) and the devices of SRC for
 * command CMD; exits 2 with the reason printed when --sysfs and --snapshot
 * are both given or the snapshot cannot be read.  SRC's strings are
 * freed. */
struct modalias_ctx *open_devices(struct device_source *src, const char *cmd, struct cli_devices *dv);
/* "modalias CMD: ALIAS: no module" on standard error (not with --quiet) */
void say_no_module(const char *cmd, const char *alias);

/* While BUF is not NULL, the library's messages of CTX go into BUF instead
 * of standard error, for the command to say them in one line of its own
 * (say_captured()); ctx_capture(ctx, NULL) prints them again. */
void ctx_capture(struct modalias_ctx *ctx, GString *buf);
/* "modalias CMD: " then the captured messages of BUF (each line a
 * sentence, joined with "; "), or FALLBACK when there is none, and
 * "; HINT" (what to do) when HINT is not NULL: one line */
void say_captured(const char *cmd, GString *buf, const char *fallback, const char *hint);

/* The captured messages of BUF said as the library's log says them
 * ("modalias: MESSAGE" a line) */
void say_log(const GString *buf);

/* SRC's strings freed (a command that ends before open_devices()) */
void device_source_clear(struct device_source *src);

/* A warning when the module tables of FROM and of TO are of two
 * architectures (what their names or modules.dep say) */
void warn_arch_pair(const char *cmd, const char *from, const char *to);

/* The module tables of SPEC and modalias.conf for command CMD (cli_tables_open()
 * with FLAGS); where no module directory is named and the running kernel's
 * is absent (containers, CI), the bundled Debian 6.1 table, said on
 * standard error.  After open_devices() read a snapshot that names its
 * kernel, that kernel is the default version (-S, -m and modalias.conf's
 * version= or directory= win): its tables missing are an error naming the
 * kernel and the options that fix it (the bundled table stands in for its
 * own kernel only); a snapshot whose architecture is not the tables' is
 * warned about.  0, or a negative errno with the reason printed. */
int open_tables(struct modalias_ctx *ctx, const struct cli_tables_spec *spec, const char *cmd, unsigned int flags,
		struct cli_tables *out);
/* open_tables() for a command that tells the state of DV's machine (list,
 * explain): when the tables are not its kernel's (the bundled table, or
 * -S/-d naming another version than the machine's), says so once on
 * standard error and sets OUT's foreign */
int open_machine_tables(struct modalias_ctx *ctx, const struct cli_devices *dv, const struct cli_tables_spec *spec,
			const char *cmd, unsigned int flags, struct cli_tables *out);

/* Whether RELEASE can be a kernel release, a directory of /lib/modules:
 * not empty, no '/', not "." or ".." */
bool kernel_release_ok(const char *release);

/* ---- modalias-build.c: a device from BUS FIELD=VALUE… (build, map --match) --- */

/* A device of BUS with the fields of ARGS (N of them, each FIELD=VALUE; a
 * list field may come several times); NULL with the reason printed
 * ("modalias CMD: …") when the bus or an argument is bad. */
struct modalias_dev *dev_from_args(struct modalias_ctx *ctx, const char *cmd, const char *bus, char **args, int n);

/* ---- modalias-parse.c: a device as JSON (parse --json, build --json) -------- */

/* {"modalias": …, "bus": …, "fields": {"name": "value" | ["v", …]}} */
void dev_json(GString *j, struct modalias_dev *dev, const char *modalias);

/* ---- modalias-names.c: a device's names (pci.ids, usb.ids) ------------------ */

/* DEV's names as a person reads them: "VENDOR DEVICE (CLASS)", each part
 * left out when the databases ($MODALIAS_IDS_DIR, else the system's) have
 * none, escaped as cli_shown() escapes (the databases are files); NULL
 * when they have no name at all (g_free() it).  The databases are read on
 * the first call. */
char *dev_name_text(struct modalias_ctx *ctx, const struct modalias_dev *dev);

/* Appends DEV's names to the JSON object in J, as its members
 * "vendor_name", "device_name", "class_name" (each only when known) */
void dev_names_json(GString *j, struct modalias_ctx *ctx, const struct modalias_dev *dev);

/* ---- modalias-state.c: what is told of a module besides its state ---------- */

/* The line "    weak dependencies: A B (not loaded with it)" of --explain
 * (resolve, explain) for a module that has some (modules.weakdep, kmod >=
 * 33); nothing when it has none or the file cannot be read (the library
 * said why) */
void print_weakdeps(struct modalias_table *table, const char *module);
