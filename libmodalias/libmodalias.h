/*
 * libmodalias - which kernel module drives this device?
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once
#ifndef LIBMODALIAS_H
#define LIBMODALIAS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * SECTION:conventions
 *
 * Every function that can fail returns an int: 0 (or a documented
 * non-negative value) on success and a negative errno code on failure.
 * Results are returned through out-parameters, which are left untouched on
 * failure.  Strings returned as `const char *` belong to the object they came
 * from and stay valid until that object is changed or freed; strings returned
 * as `char *` belong to the caller, who releases them with free(3).
 * The library never prints, aborts or exits: it reports through the log
 * function of its context.
 */

/**
 * SECTION:ctx
 *
 * A library context: the log function and priority, and the sysfs root that
 * every sysfs lookup is made against.  Contexts are reference counted; a
 * context is not thread-safe, but distinct contexts may be used from
 * distinct threads.
 */
struct modalias_ctx;

/**
 * modalias_ctx_new:
 * @ret: (out): the new context, with one reference.
 *
 * Creates a context.  Its log priority is LOG_ERR unless the environment
 * variable MODALIAS_LOG holds a syslog priority name or number (err, info,
 * debug or 3, 6, 7); its sysfs root is "/sys".
 *
 * Returns: 0, -EINVAL if @ret is NULL, -ENOMEM.
 *
 * Since: 1
 */
int modalias_ctx_new(struct modalias_ctx **ret);

/**
 * modalias_ctx_ref:
 * @ctx: a context, or NULL.
 *
 * Returns: @ctx, with one more reference.
 *
 * Since: 1
 */
struct modalias_ctx *modalias_ctx_ref(struct modalias_ctx *ctx);

/**
 * modalias_ctx_unref:
 * @ctx: a context, or NULL.
 *
 * Drops one reference and frees the context with the last one.
 *
 * Returns: @ctx while references remain, NULL once it is freed.
 *
 * Since: 1
 */
struct modalias_ctx *modalias_ctx_unref(struct modalias_ctx *ctx);

/**
 * modalias_log_fn:
 * @data: the pointer given to modalias_ctx_set_log_fn().
 * @priority: a syslog(3) priority (LOG_ERR = 3 … LOG_DEBUG = 7).
 * @file: source file of the message.
 * @line: source line of the message.
 * @fn: function that logged.
 * @format: printf(3) format of the message (it ends in a newline).
 * @args: its arguments.
 *
 * A log function.  The default one writes "libmodalias: MESSAGE" to stderr.
 *
 * Since: 1
 */
typedef void (*modalias_log_fn)(void *data, int priority, const char *file,
				int line, const char *fn, const char *format,
				va_list args);

/**
 * modalias_ctx_set_log_fn:
 * @ctx: a context.
 * @fn: the new log function, or NULL to drop every message.
 * @data: passed to @fn.
 *
 * Since: 1
 */
void modalias_ctx_set_log_fn(struct modalias_ctx *ctx, modalias_log_fn fn,
			     void *data);

/**
 * modalias_ctx_get_log_priority:
 * @ctx: a context.
 *
 * Returns: the highest priority number that is logged, or -EINVAL.
 *
 * Since: 1
 */
int modalias_ctx_get_log_priority(const struct modalias_ctx *ctx);

/**
 * modalias_ctx_set_log_priority:
 * @ctx: a context.
 * @priority: messages with a priority number above this are dropped.
 *
 * Since: 1
 */
void modalias_ctx_set_log_priority(struct modalias_ctx *ctx, int priority);

/**
 * modalias_ctx_set_sysfs_root:
 * @ctx: a context.
 * @path: the directory that plays /sys (a captured tree in tests).
 *
 * Returns: 0, -EINVAL for a NULL or empty @path, -ENOMEM.
 *
 * Since: 1
 */
int modalias_ctx_set_sysfs_root(struct modalias_ctx *ctx, const char *path);

/**
 * modalias_ctx_get_sysfs_root:
 * @ctx: a context.
 *
 * Returns: the sysfs root, "/sys" by default; NULL for a NULL @ctx.
 *
 * Since: 1
 */
const char *modalias_ctx_get_sysfs_root(const struct modalias_ctx *ctx);

/**
 * SECTION:bus
 *
 * The buses whose modalias strings the library can build and take apart,
 * and their named fields.  A bus is named by the prefix of its modalias
 * ("usb", "pci", "of", …).  The tables are static: these functions need no
 * context.
 */

/**
 * modalias_bus_name:
 * @index: 0, 1, 2, …
 *
 * Returns: the name of the @index-th known bus, or NULL past the last.
 *
 * Since: 1
 */
const char *modalias_bus_name(unsigned int index);

/**
 * modalias_bus_field_name:
 * @bus: a bus name.
 * @index: 0, 1, 2, …
 *
 * Returns: the name of the @index-th field of @bus in modalias order, or
 * NULL past the last field or for an unknown bus.
 *
 * Since: 1
 */
const char *modalias_bus_field_name(const char *bus, unsigned int index);

/**
 * modalias_bus_field_help:
 * @bus: a bus name.
 * @field: one of its field names.
 *
 * Returns: a one-line description of the field and of the values it
 * takes, or NULL for an unknown bus or field.
 *
 * Since: 1
 */
const char *modalias_bus_field_help(const char *bus, const char *field);

/**
 * SECTION:dev
 *
 * A device as its modalias describes it: a bus and the values of that bus's
 * fields.  Build one from IDs (modalias_dev_new() and the setters), from a
 * modalias string (modalias_parse()), from the legacy hotplug environment
 * (modalias_dev_new_from_env()) or from a sysfs device directory
 * (modalias_dev_new_from_sysfs()); turn it into the string the kernel would
 * emit with modalias_dev_format().
 *
 * Field values are text.  Numeric fields take hexadecimal numbers, with or
 * without "0x" (the few decimal fields say so in their help), or "*" for the
 * wildcard that very old kernels and the legacy hotplug agents wrote where a
 * value was unknown.  List fields (OF compatibles, ACPI ids, input bitmaps,
 * cpu features) hold several values: modalias_dev_add() appends one (or, for
 * numeric lists, a comma-separated list), modalias_dev_set() replaces them
 * all.  A field that is not set is left out of the string where the kernel
 * leaves it out (the USB interface number of pre-3.x kernels, the HID group
 * of old kernels), and written as zero or empty elsewhere.
 *
 * A modalias of a bus the library does not know is still taken apart: its
 * bus is the prefix before the first ':' and its only field, "raw", holds
 * the rest.
 */
struct modalias_dev;

/**
 * modalias_dev_new:
 * @ctx: a context.
 * @bus: a bus name (see modalias_bus_name()).
 * @ret: (out): the new device, with one reference and no field set.
 *
 * Returns: 0, -EINVAL for a NULL argument, -ENOENT for an unknown bus,
 * -ENOMEM.
 *
 * Since: 1
 */
int modalias_dev_new(struct modalias_ctx *ctx, const char *bus,
		     struct modalias_dev **ret);

/**
 * modalias_dev_ref:
 * @dev: a device, or NULL.
 *
 * Returns: @dev, with one more reference.
 *
 * Since: 1
 */
struct modalias_dev *modalias_dev_ref(struct modalias_dev *dev);

/**
 * modalias_dev_unref:
 * @dev: a device, or NULL.
 *
 * Returns: @dev while references remain, NULL once it is freed.
 *
 * Since: 1
 */
struct modalias_dev *modalias_dev_unref(struct modalias_dev *dev);

/**
 * modalias_dev_get_bus:
 * @dev: a device.
 *
 * Returns: its bus name, or NULL for a NULL @dev.
 *
 * Since: 1
 */
const char *modalias_dev_get_bus(const struct modalias_dev *dev);

/**
 * modalias_dev_set:
 * @dev: a device.
 * @field: a field name of its bus.
 * @value: the value as text (see the section introduction).
 *
 * Sets a field, replacing every value it had.
 *
 * Returns: 0; -ENOENT for a field the bus does not have; -EINVAL for a
 * value that is not of the field's form (not hexadecimal, empty where that
 * is not allowed); -ERANGE for a number wider than the field; -ENOMEM.
 * The reason is logged, naming the field.
 *
 * Since: 1
 */
int modalias_dev_set(struct modalias_dev *dev, const char *field,
		     const char *value);

/**
 * modalias_dev_set_uint:
 * @dev: a device.
 * @field: a numeric field name of its bus.
 * @value: the number.
 *
 * Returns: 0, -ENOENT for an unknown field, -EINVAL for a field that does
 * not hold numbers, -ERANGE for a number wider than the field.
 *
 * Since: 1
 */
int modalias_dev_set_uint(struct modalias_dev *dev, const char *field,
			  uint64_t value);

/**
 * modalias_dev_add:
 * @dev: a device.
 * @field: a list field of its bus.
 * @value: one value, or for numeric lists a comma-separated list.
 *
 * Appends to a list field (for a field that is not a list, the same as
 * modalias_dev_set()).
 *
 * Returns: as modalias_dev_set().
 *
 * Since: 1
 */
int modalias_dev_add(struct modalias_dev *dev, const char *field,
		     const char *value);

/**
 * modalias_dev_unset:
 * @dev: a device.
 * @field: a field name of its bus.
 *
 * Returns: 0, -ENOENT for an unknown field.
 *
 * Since: 1
 */
int modalias_dev_unset(struct modalias_dev *dev, const char *field);

/**
 * modalias_dev_get_count:
 * @dev: a device.
 * @field: a field name of its bus.
 *
 * Returns: the number of values the field holds (0 when unset, 1 for a
 * set scalar field), -ENOENT for an unknown field.
 *
 * Since: 1
 */
int modalias_dev_get_count(const struct modalias_dev *dev, const char *field);

/**
 * modalias_dev_get:
 * @dev: a device.
 * @field: a field name of its bus.
 * @index: which value of a list field (0 for scalar fields).
 * @value: (out): the value as the modalias writes it ("046D", "*",
 *   "simple-bus"); it stays valid until @dev changes or is freed.
 *
 * Returns: 0, -ENOENT for an unknown or unset field, -ERANGE for an
 * @index past the last value.
 *
 * Since: 1
 */
int modalias_dev_get(const struct modalias_dev *dev, const char *field,
		     unsigned int index, const char **value);

/**
 * modalias_dev_get_uint:
 * @dev: a device.
 * @field: a numeric field name of its bus.
 * @index: which value of a list field (0 for scalar fields).
 * @value: (out): the number.
 *
 * Returns: 0, -ENOENT for an unknown or unset field, -ERANGE for an
 * @index past the last value, -EINVAL for a non-numeric field, -EDOM for a
 * wildcard value.
 *
 * Since: 1
 */
int modalias_dev_get_uint(const struct modalias_dev *dev, const char *field,
			  unsigned int index, uint64_t *value);

/**
 * modalias_dev_format:
 * @dev: a device.
 * @ret: (out) (transfer full): the modalias string, byte for byte what the
 *   kernel puts in the device's sysfs "modalias" file (without the newline)
 *   and in its uevent MODALIAS; free it with free(3).
 *
 * There is no length limit: a cpu modalias runs to several KiB.
 *
 * Returns: 0, -EINVAL for a NULL argument, -ENOMEM.
 *
 * Since: 1
 */
int modalias_dev_format(const struct modalias_dev *dev, char **ret);

/**
 * modalias_parse:
 * @ctx: a context.
 * @modalias: a modalias string (a trailing newline is allowed).
 * @ret: (out): the device it describes.
 *
 * Takes a modalias string apart into its bus and named fields, strictly:
 * modalias_dev_format() of the result gives back @modalias exactly.
 *
 * Returns: 0; -EINVAL, logged with the offending field and offset, when the
 * string has no "bus:" prefix, holds a NUL-free control character, or is
 * not of its known bus's form; -ENOMEM.
 *
 * Since: 1
 */
int modalias_parse(struct modalias_ctx *ctx, const char *modalias,
		   struct modalias_dev **ret);

/**
 * modalias_getenv_fn:
 * @data: the pointer given with the function.
 * @name: a variable name.
 *
 * Returns: the value of the variable @name, or NULL when it is not set.
 *
 * Since: 1
 */
typedef const char *(*modalias_getenv_fn)(void *data, const char *name);

/**
 * modalias_dev_new_from_env_fn:
 * @ctx: a context; its sysfs root is where $DEVPATH is looked up.
 * @subsystem: the event's subsystem (argv[1] of /sbin/hotplug), or NULL to
 *   take SUBSYSTEM from the variables.
 * @getenv_fn: looks the event's variables up.
 * @data: passed to @getenv_fn.
 * @ret: (out): the device.
 *
 * Builds the device of a kernel event from its variables, the job of
 * hotplug-ng's module_* agents, giving today's kernel modalias.  A MODALIAS
 * variable, when present, wins.  Otherwise: usb takes PRODUCT (hex), TYPE
 * and INTERFACE (decimal), and the interface number from
 * $SYSFS_ROOT$DEVPATH/bInterfaceNumber, else from the ":C.I" end of
 * DEVPATH, else a wildcard; pci takes PCI_ID, PCI_SUBSYS_ID and PCI_CLASS;
 * ieee1394 takes VENDOR_ID, MODEL_ID, SPECIFIER_ID and VERSION; scsi reads
 * $SYSFS_ROOT$DEVPATH/type; of takes OF_NAME, OF_TYPE, OF_COMPATIBLE_N and
 * OF_COMPATIBLE_<n>; input takes PRODUCT (four fields) and the EV, KEY,
 * REL, ABS, MSC, LED, SND, FF and SW bitmaps; serio takes SERIO_TYPE,
 * SERIO_PROTO, SERIO_ID and SERIO_EXTRA; sdio takes SDIO_CLASS and SDIO_ID;
 * ccw takes CU_TYPE, CU_MODEL, DEV_TYPE and DEV_MODEL.
 *
 * Returns: 0; -ENOENT when a variable the subsystem needs is missing (or
 * the subsystem is not one of those above and there is no MODALIAS);
 * -EINVAL when a variable is malformed; -ERANGE when a number overflows its
 * field; errors of reading sysfs (-ENOENT, -EACCES, …).  The variable at
 * fault is named in the log.
 *
 * Since: 1
 */
int modalias_dev_new_from_env_fn(struct modalias_ctx *ctx,
				 const char *subsystem,
				 modalias_getenv_fn getenv_fn, void *data,
				 struct modalias_dev **ret);

/**
 * modalias_dev_new_from_env:
 * @ctx: a context.
 * @subsystem: as for modalias_dev_new_from_env_fn().
 * @envp: a NULL-terminated array of "NAME=value" strings (environ).
 * @ret: (out): the device.
 *
 * modalias_dev_new_from_env_fn() over an environment array.
 *
 * Returns: as modalias_dev_new_from_env_fn().
 *
 * Since: 1
 */
int modalias_dev_new_from_env(struct modalias_ctx *ctx, const char *subsystem,
			      const char *const *envp,
			      struct modalias_dev **ret);

/**
 * modalias_dev_new_from_sysfs:
 * @ctx: a context.
 * @devpath: the device's path below the sysfs root, as the kernel's
 *   DEVPATH ("/devices/pci0000:00/0000:00:14.0").
 * @ret: (out): the device.
 *
 * Reads a device's modalias from sysfs: its "modalias" attribute when
 * present, else the MODALIAS line of its "uevent" file, else the modalias
 * rebuilt from its id attributes (usb interfaces: bInterface* and the
 * parent's idVendor, idProduct, bcdDevice, bDevice*; pci: vendor, device,
 * subsystem_vendor, subsystem_device, class; input: id/ and capabilities/;
 * serio: id/; scsi: type; virtio: vendor, device).
 *
 * Returns: 0; -ENODATA when the device has no modalias; -ENOENT when
 * @devpath does not exist; -EINVAL for an attribute that does not parse;
 * other errors of reading files (-EACCES, …), logged with the file name.
 *
 * Since: 1
 */
int modalias_dev_new_from_sysfs(struct modalias_ctx *ctx, const char *devpath,
				struct modalias_dev **ret);

/**
 * modalias_sysfs_fn:
 * @data: the pointer given to modalias_sysfs_foreach().
 * @devpath: the device's path below the sysfs root.
 * @dev: the device, or NULL when @err is set; borrowed: take a reference
 *   to keep it.
 * @err: 0, or the negative errno modalias_dev_new_from_sysfs() gave.
 *
 * Returns: 0 to go on, anything else to stop the walk.
 *
 * Since: 1
 */
typedef int (*modalias_sysfs_fn)(void *data, const char *devpath,
				 struct modalias_dev *dev, int err);

/**
 * modalias_sysfs_foreach:
 * @ctx: a context.
 * @fn: called for every device under SYSFS_ROOT/devices that has a
 *   modalias (and for every device whose modalias could not be read, with
 *   its error), parents before children, siblings in byte order.
 * @data: passed to @fn.
 *
 * Symbolic links are not followed.  Devices without a modalias are
 * skipped silently.
 *
 * Returns: 0 after the whole walk, what @fn returned when it stopped the
 * walk, or a negative errno when SYSFS_ROOT/devices cannot be read.
 *
 * Since: 1
 */
int modalias_sysfs_foreach(struct modalias_ctx *ctx, modalias_sysfs_fn fn,
			   void *data);


/**
 * SECTION:table
 *
 * An alias table answers "which modules does this modalias want?" the way
 * kmod_module_new_from_lookup() does, from the same sources in the same
 * order, the first source with a match winning: modprobe.d "alias" lines,
 * module names (modules.dep), symbols (modules.symbols), modprobe.d
 * install/remove commands, modules.alias (and any table loaded with
 * modalias_table_load_file(), modalias_table_load_buffer() or
 * modalias_table_add()), the builtin modules' aliases
 * (modules.builtin.modinfo), and builtin module names (modules.builtin).
 * Patterns and queries are normalised as kmod does ('-' is '_' outside
 * brackets) and matched with fnmatch(3) semantics; every matching module is
 * reported once, in modules.order order.
 *
 * Loading functions and the first lookup after a change build the index;
 * after that, lookups do not change the table, and several threads may
 * look up in one table at once, each with its own #modalias_result.
 */
struct modalias_table;

/**
 * modalias_table_new:
 * @ctx: a context.
 * @ret: (out): a new empty table.
 *
 * Returns: 0, -EINVAL, -ENOMEM.
 *
 * Since: 1
 */
int modalias_table_new(struct modalias_ctx *ctx, struct modalias_table **ret);

/**
 * modalias_table_new_from_directory:
 * @ctx: a context.
 * @dir: a kernel's module directory (depmod's output), or NULL for
 *   /lib/modules/$(uname -r).
 * @ret: (out): the table.
 *
 * Loads modules.alias (required), and when present modules.order,
 * modules.dep, modules.symbols, modules.builtin and modules.builtin.modinfo.
 * No modprobe.d configuration is read: see modalias_table_load_config().
 *
 * Returns: the number of malformed lines that were skipped (each logged as
 * FILE:LINE with the reason), or a negative errno: -ENOENT when there is
 * no modules.alias, other errors of reading files, -ENOMEM.
 *
 * Since: 1
 */
int modalias_table_new_from_directory(struct modalias_ctx *ctx, const char *dir,
				      struct modalias_table **ret);

/**
 * modalias_table_save:
 * @table: a table.
 * @path: where to write its index cache (written to a temporary file in
 *   the same directory, then renamed over @path).
 *
 * Writes the table, index and all, to a file that
 * modalias_table_new_from_cache() maps in a later process.  The file is
 * specific to this library version and this machine.
 *
 * Returns: 0, or a negative errno of writing the file (logged).
 *
 * Since: 1
 */
int modalias_table_save(struct modalias_table *table, const char *path);

/**
 * modalias_table_new_from_cache:
 * @ctx: a context.
 * @path: an index cache written by modalias_table_save().
 * @dir: (nullable): the module directory the cache must be current for: the
 *   size, mtime and inode of every file the table was loaded from must be
 *   as they were; NULL to skip the check.
 * @ret: (out): the table, its arrays mapped read-only from the file (a
 *   later change copies them to memory first).
 *
 * Returns: 0; -ENOENT when there is no such file; -ESTALE when a source
 * changed; -EINVAL when the file is not a cache of this library version or
 * is damaged (logged); other errors of reading it.
 *
 * Since: 1
 */
int modalias_table_new_from_cache(struct modalias_ctx *ctx, const char *path, const char *dir,
				  struct modalias_table **ret);

/**
 * modalias_table_open:
 * @ctx: a context.
 * @dir: a module directory, or NULL for /lib/modules/$(uname -r).
 * @cache_dir: (nullable): a directory for index caches, or NULL for none.
 * @ret: (out): the table.
 *
 * modalias_table_new_from_directory(), through a cache: a current cache of
 * @dir in @cache_dir is mapped; otherwise the table is loaded from @dir and,
 * when @cache_dir is writable, its cache written for the next time.
 *
 * Returns: as modalias_table_new_from_directory().
 *
 * Since: 1
 */
int modalias_table_open(struct modalias_ctx *ctx, const char *dir, const char *cache_dir,
			struct modalias_table **ret);

/**
 * modalias_table_load_config:
 * @table: a table.
 * @config_paths: NULL-terminated list of modprobe.d files or directories,
 *   NULL for the system's (as libkmod's kmod_new()), or an empty list for
 *   none.
 *
 * Adds the "alias" lines and the install/remove command names of the
 * modprobe configuration, read through libkmod.
 *
 * Returns: 0 or a negative errno.
 *
 * Since: 1
 */
int modalias_table_load_config(struct modalias_table *table, const char *const *config_paths);

/**
 * modalias_table_load_file:
 * @table: a table.
 * @path: a file of "alias PATTERN MODULE" lines ('#' comments and blank
 *   lines allowed), such as another kernel's modules.alias.
 *
 * Adds its aliases to the modules.alias source.
 *
 * Returns: the number of malformed lines skipped (each logged as
 * FILE:LINE), or a negative errno.
 *
 * Since: 1
 */
int modalias_table_load_file(struct modalias_table *table, const char *path);

/**
 * modalias_table_load_buffer:
 * @table: a table.
 * @name: what to call the buffer in messages, or NULL.
 * @buf: "alias PATTERN MODULE" lines.
 * @len: the length of @buf in bytes.
 *
 * Returns: as modalias_table_load_file().
 *
 * Since: 1
 */
int modalias_table_load_buffer(struct modalias_table *table, const char *name,
			       const char *buf, size_t len);

/**
 * modalias_table_add:
 * @table: a table.
 * @pattern: a glob pattern.
 * @module: the module it names.
 *
 * Returns: 0, -EINVAL for an empty argument or a pattern with unbalanced
 * brackets, -ENOMEM.
 *
 * Since: 1
 */
int modalias_table_add(struct modalias_table *table, const char *pattern, const char *module);

/**
 * modalias_table_prepare:
 * @table: a table.
 *
 * Builds the index now rather than at the next lookup (so that threads can
 * share the table from the start).
 *
 * Returns: 0, -ENOMEM.
 *
 * Since: 1
 */
int modalias_table_prepare(struct modalias_table *table);

/**
 * modalias_table_get_pattern_count:
 * @table: a table.
 *
 * Returns: the number of patterns of the modules.alias source.
 *
 * Since: 1
 */
int modalias_table_get_pattern_count(const struct modalias_table *table);

/**
 * modalias_table_get_memory:
 * @table: a table.
 * @bytes: (out): the memory its strings, patterns and index take.
 *
 * Returns: 0, -EINVAL.
 *
 * Since: 1
 */
int modalias_table_get_memory(const struct modalias_table *table, size_t *bytes);

/**
 * modalias_table_ref:
 * @table: a table, or NULL.
 *
 * Returns: @table.
 *
 * Since: 1
 */
struct modalias_table *modalias_table_ref(struct modalias_table *table);

/**
 * modalias_table_unref:
 * @table: a table, or NULL.
 *
 * Returns: @table while references remain, NULL once it is freed.
 *
 * Since: 1
 */
struct modalias_table *modalias_table_unref(struct modalias_table *table);

/**
 * modalias_result:
 *
 * What a lookup found: its source and the modules, each with the patterns
 * that matched.  A result is reused from lookup to lookup (it allocates
 * only when it must grow); its strings stay valid until its next lookup or
 * until the table is freed.
 */
struct modalias_result;

/**
 * modalias_result_new:
 * @ret: (out): an empty result.
 *
 * Returns: 0, -EINVAL, -ENOMEM.
 *
 * Since: 1
 */
int modalias_result_new(struct modalias_result **ret);

/**
 * modalias_result_ref:
 * @result: a result, or NULL.
 *
 * Returns: @result.
 *
 * Since: 1
 */
struct modalias_result *modalias_result_ref(struct modalias_result *result);

/**
 * modalias_result_unref:
 * @result: a result, or NULL.
 *
 * Returns: @result while references remain, NULL once it is freed.
 *
 * Since: 1
 */
struct modalias_result *modalias_result_unref(struct modalias_result *result);

/**
 * modalias_table_lookup:
 * @table: a table.
 * @alias: a modalias (or a module name, or "symbol:NAME").
 * @result: where the answer goes.
 *
 * Looks @alias up as kmod_module_new_from_lookup() does.  Like kmod, only
 * the first 4095 bytes of @alias are considered.
 *
 * Returns: the number of modules found (0: none), -EINVAL for an alias
 * with unbalanced brackets, -ENOMEM.
 *
 * Since: 1
 */
int modalias_table_lookup(struct modalias_table *table, const char *alias,
			  struct modalias_result *result);

/**
 * modalias_result_get_source:
 * @result: a result.
 *
 * Returns: which source answered: "config", "name", "symbol", "command",
 * "alias", "builtin-alias" or "builtin"; NULL when nothing matched.
 *
 * Since: 1
 */
const char *modalias_result_get_source(const struct modalias_result *result);

/**
 * modalias_result_get_count:
 * @result: a result.
 *
 * Returns: the number of modules found.
 *
 * Since: 1
 */
unsigned int modalias_result_get_count(const struct modalias_result *result);

/**
 * modalias_result_get_module:
 * @result: a result.
 * @index: 0 … count - 1, in kmod's order.
 *
 * Returns: the module's name (normalised: '_', not '-'), or NULL.
 *
 * Since: 1
 */
const char *modalias_result_get_module(const struct modalias_result *result, unsigned int index);

/**
 * modalias_result_is_builtin:
 * @result: a result.
 * @index: a module of it.
 *
 * Returns: whether the module is built into the kernel.
 *
 * Since: 1
 */
bool modalias_result_is_builtin(const struct modalias_result *result, unsigned int index);

/**
 * modalias_result_get_pattern_count:
 * @result: a result.
 * @index: a module of it.
 *
 * Returns: how many of its patterns matched.
 *
 * Since: 1
 */
unsigned int modalias_result_get_pattern_count(const struct modalias_result *result,
					       unsigned int index);

/**
 * modalias_result_get_pattern:
 * @result: a result.
 * @index: a module of it.
 * @pattern: 0 … pattern count - 1.
 *
 * Returns: the matching pattern, as normalised, or NULL.
 *
 * Since: 1
 */
const char *modalias_result_get_pattern(const struct modalias_result *result, unsigned int index,
					unsigned int pattern);

/**
 * modalias_result_get_pattern_origin:
 * @result: a result.
 * @index: a module of it.
 * @pattern: one of its matching patterns.
 * @line: (out) (optional): the line of the file (0 when not from a file).
 *
 * Returns: the file the pattern came from ("modprobe.d" for configuration,
 * "(added)" for modalias_table_add()), or NULL.
 *
 * Since: 1
 */
const char *modalias_result_get_pattern_origin(const struct modalias_result *result,
					       unsigned int index, unsigned int pattern,
					       unsigned int *line);

#ifdef __cplusplus
}
#endif

#endif /* LIBMODALIAS_H */
