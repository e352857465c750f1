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
#include <stdio.h>

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
 * every sysfs lookup is made against.  Contexts are reference counted, and
 * every reference count of the library is atomic, so objects may be made,
 * referenced and released in several threads that share a context;
 * changing a context (its log function, priority or sysfs root) while other
 * threads use it is not safe.
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
 * A log function.  The default one writes "libmodalias: MESSAGE" to stderr,
 * escaped as modalias(1) shows strings (a message quotes modules.alias,
 * modprobe.d, sysfs): a control character as C writes it (\n, \xNN), a
 * backslash as \\, so that what a file wrote reads back one way.  A
 * message is the library's text (it writes no backslash of its own) and
 * the strings it quotes as they were: a log function that shows it to
 * people escapes it.
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
 * modalias_ctx_set_word_bits:
 * @ctx: a context.
 * @bits: 32 or 64: the word size of the kernel whose bitmaps are read
 *   (input capabilities in a sysfs tree, EV=/KEY=… of a uevent,
 *   modules.inputmap rows); 0: not known (the default).
 *
 * Bitmaps are lists of the kernel's unsigned longs, and nothing in them
 * says how wide those are.  Where @bits is 0, a word wider than 32 bits
 * says 64, else the word size of this machine is assumed (said at
 * LOG_INFO where it matters: a bitmap of several words).  Maps already
 * read keep theirs (modalias_map_set_word_bits()).
 *
 * Returns: 0, or -EINVAL for a NULL @ctx or @bits not 0, 32 or 64.
 *
 * Since: 4
 */
int modalias_ctx_set_word_bits(struct modalias_ctx *ctx, unsigned int bits);

/**
 * modalias_ctx_get_word_bits:
 * @ctx: a context.
 *
 * Returns: the word size set by modalias_ctx_set_word_bits(), 0 when none
 *   is (the bitmaps tell, else this machine's), -EINVAL for a NULL @ctx.
 *
 * Since: 4
 */
int modalias_ctx_get_word_bits(const struct modalias_ctx *ctx);

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
 * modalias_bus_field_is_list:
 * @bus: a bus name.
 * @field: one of its field names.
 *
 * Whether the field holds a list of values (input bitmaps, cpu features,
 * of compatibles, acpi ids: modalias_dev_add() appends to it and
 * modalias_dev_get() takes an index) or one value.  Front ends ask this
 * rather than read the help text.
 *
 * Returns: 1 for a list, 0 for one value, -ENOENT for an unknown bus or
 * field, -EINVAL for NULL.
 *
 * Since: 2
 */
int modalias_bus_field_is_list(const char *bus, const char *field);

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
 * leaves it out (the DMI fields, the x86 cpu's vendor, family and model,
 * the i3c part id), and written as zero or empty elsewhere.
 *
 * A device made with modalias_dev_new() starts as today's kernels write it
 * (since 4): the fields only old kernels left out, the USB interface number
 * (before 3.x) and the HID group, are zero until set, so that "in00" and
 * "g0000" are written, as every USB and HID alias of today's tables expects
 * (version 3 and before left them out).  An empty value leaves such a field
 * out, as those kernels did (modalias_dev_set(dev, "bInterfaceNumber", "")),
 * as modalias_dev_unset() does.  A modalias parsed without them keeps them
 * unset, and formats back without them, byte for byte.
 *
 * GUIDs and UUIDs are set in the case their bus writes them (since 4): wmi
 * and ishtp upper case ("%pUL"), tee, mei and vmbus lower case ("%pUb",
 * "%pUl", "%*phN"); a parsed one is kept as it was written.
 *
 * Every function below that takes a field name returns -ENOENT for a name
 * the device's bus does not have, and logs it as "unknown field 'NAME' of
 * bus BUS" (since 2: the text for front ends to show, rather than the
 * strerror() of ENOENT); an unset field is -ENOENT too where it says so,
 * without a message.
 *
 * A modalias of a bus the library does not know (cxl:, dax:, xen:, …) is
 * still taken apart, generically: its bus is the text before the first ':'
 * (not empty) and its only field, "raw", holds everything after that ':'
 * as it is (empty, or with more ':'), so it formats back byte for byte.
 *
 * of: strings are split as the kernel cannot tell: it writes any character
 * in the name and the type, so of the 'T's the one whose type looks most
 * like one ("(null)", "<NULL>", empty, then a lower-case word) starts the
 * type, the leftmost of equals, and compatibles start at a 'C' followed by
 * a lower-case letter (or a digit or capital with a ',' before the next
 * 'C', or at a final 'C').
 */
struct modalias_dev;

/**
 * modalias_dev_new:
 * @ctx: a context.
 * @bus: a bus name (see modalias_bus_name()).
 * @ret: (out): the new device, with one reference and no field set but
 *   those today's kernels always write and old ones left out (USB's
 *   bInterfaceNumber, HID's group), which are zero (since 4; see the
 *   section introduction).
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
 * Sets a field, replacing every value it had.  An empty @value leaves
 * out a field the kernel may leave out (bInterfaceNumber, HID's group, the
 * x86 cpu's vendor, family and model, …), as modalias_dev_unset() does
 * (since 4), where empty is not itself a value (the DMI fields).
 *
 * Returns: 0; -ENOENT for a field the bus does not have (logged as an
 * unknown field); -EINVAL for a
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
 * $SYSFS_ROOT$DEVPATH/type; the buses whose kernel writes an of: modalias
 * for a device with a devicetree node (platform, i2c, spmi, serial (serdev),
 * mdio_bus, ulpi, rpmsg, mipi-dsi, ibmebus, macio, 2.6's of_platform) and
 * "of" named as @subsystem take OF_NAME, OF_TYPE (absent: "T(null)", as
 * the kernel writes a node without a device_type), OF_COMPATIBLE_N and
 * OF_COMPATIBLE_<n>, and no other bus does (since 4; before, any event
 * with OF_NAME did, though spi writes spi:, vio vio:, amba amba:, whatever
 * OF variables their events carry); input takes PRODUCT (four fields) and
 * the EV, KEY, REL, ABS, MSC, LED, SND, FF and SW bitmaps; serio takes
 * SERIO_TYPE, SERIO_PROTO, SERIO_ID and SERIO_EXTRA; sdio takes SDIO_CLASS
 * and SDIO_ID; ccw takes CU_TYPE, CU_MODEL, DEV_TYPE and DEV_MODEL.
 *
 * Returns: 0; -ENOENT when a variable the subsystem needs is missing (or
 * the subsystem is not one of those above and there is no MODALIAS);
 * -EINVAL when a variable is malformed; -ERANGE when a number overflows its
 * field; errors of reading sysfs (-ENOENT, -EACCES, …).  The variable at
 * fault is named in the log: at LOG_INFO when the event carries none of its
 * subsystem's variables (a partition, a network interface, an input event
 * node, a SCSI host or target: most events have no modalias), at LOG_ERR
 * when it carries some of them but not all, or malformed ones.
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
 * Each attribute is read only when it is a regular file of 64 KiB at most,
 * opened without blocking: a FIFO, a device or an endless file in its place
 * (a copied or hostile tree) is an error, not a stall.
 *
 * Returns: 0; -ENODATA when the device has no modalias; -ENOENT when
 * @devpath does not exist; -EINVAL for an attribute that does not parse or
 * is not a regular file; -EFBIG for one larger than 64 KiB; -EBADMSG for
 * one holding a NUL byte; other errors of reading files (-EACCES, …); each
 * logged with the file name.
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
 * modalias_sysfs_get_driver:
 * @ctx: a context.
 * @devpath: the device's path below the sysfs root ("/devices/…").
 * @driver: (out) (optional) (nullable): the driver bound to the device
 *   (the last component of its "driver" link; in a captured tree without
 *   links, the text of its ".driver" file, else the DRIVER= line of its
 *   "uevent", as the kernel writes it for a bound device), or NULL when
 *   none is.
 * @driver_module: (out) (optional) (nullable): the module of that driver
 *   ("driver/module" link), or NULL (builtin, or no driver).
 * @driver_override: (out) (optional) (nullable): the device's
 *   "driver_override" attribute, or NULL when it is absent or not set.
 *
 * What sysfs says of the device's driver.  Each string is malloc'ed; free
 * it with free().  Links are read, never followed; attributes are read as
 * modalias_dev_new_from_sysfs() reads them.
 *
 * Returns: 0, -EINVAL for a @devpath that leaves the sysfs root, -ENOMEM.
 *
 * Since: 3
 */
int modalias_sysfs_get_driver(struct modalias_ctx *ctx, const char *devpath,
			      char **driver, char **driver_module,
			      char **driver_override);

/**
 * modalias_sysfs_is_module_loaded:
 * @ctx: a context.
 * @module: a module name as the kernel writes it ('_', not '-').
 *
 * Returns: 1 when SYSFS_ROOT/module/@module/initstate says "live", 0 when
 *   not (a builtin module has no initstate), -EINVAL for a name that is no
 *   module's.
 *
 * Since: 3
 */
int modalias_sysfs_is_module_loaded(struct modalias_ctx *ctx, const char *module);

/**
 * modalias_sysfs_is_module_builtin:
 * @ctx: a context.
 * @module: a module name, as kmod writes it ('_', not '-').
 *
 * Whether the running kernel says @module is built into it: its directory
 * SYSFS_ROOT/module/@module is there without an "initstate" (which only a
 * loaded module has), or a driver of its name (its '_' written '-' too)
 * is registered on a bus, SYSFS_ROOT/bus/BUS/drivers/NAME, without the
 * "module" link a loaded module's driver has.  The kernel makes the module
 * directory for a built-in module that has parameters or a version, not
 * for every one, and a driver may be named otherwise than its module: 0
 * says only that sysfs does not tell.  Whatever table is used, this is the
 * machine's own word.
 *
 * Returns: 1 when it is built in, 0 when sysfs does not say so, -EINVAL
 * for a name that is not a module name, -ENOMEM.
 *
 * Since: 4
 */
int modalias_sysfs_is_module_builtin(struct modalias_ctx *ctx, const char *module);

/**
 * modalias_sysfs_devpath:
 * @ctx: a context; @path is taken below its sysfs root.
 * @path: a path below the sysfs root, with or without a leading '/': a
 *   bus's, a class's or dev/'s link ("bus/pci/devices/0000:00:1f.2",
 *   "class/net/eth0", "dev/char/4:0"), a path through a device's links
 *   ("class/net/eth0/device"), or a devpath.
 * @devpath: (out): the devpath ("/devices/…") of the device @path leads
 *   to, as the kernel's DEVPATH and modalias_sysfs_foreach() name it;
 *   malloc'ed, free it with free(); set only on success.
 *
 * The device a path a user gives names.  @path is resolved inside the
 * sysfs root, never by the kernel's lookup: one component at a time from
 * the root, each directory opened without following links; a link's
 * target (relative, as sysfs's links are) takes its place in the path, so
 * that each ".." is taken against the path walked so far.  A step above
 * the root is refused, even when the path would come back into it (a
 * link to ../../elsewhere/../ROOT/devices/…), as is a link with an
 * absolute target; at most 40 links are followed.  Whatever @path leads
 * to must be a directory below SYSFS_ROOT/devices: a bus's driver, the
 * bus/ directory, an attribute are no device.  Nothing is logged: the
 * caller knows what it asked.
 *
 * Returns: 0; -EXDEV when @path or a link on the way leads out of the
 * sysfs root; -ELOOP for more than 40 links, or more than 4096 directories
 * entered on the way (each ".." is walked again from the root: links of
 * "../" by the thousand); -ENOENT when a component is
 * not there (a dangling link); -ENOTDIR when one that must be walked into,
 * or the last, is not a directory (a file, a FIFO); -ENODEV when @path
 * leads to a directory of the root that is not below its devices/;
 * -ENAMETOOLONG; -EINVAL for a NULL argument; -ENOMEM; another negative
 * errno of opening a directory (-EACCES, the root's own error).
 *
 * Since: 4
 */
int modalias_sysfs_devpath(struct modalias_ctx *ctx, const char *path, char **devpath);


/**
 * SECTION:snapshot
 *
 * A snapshot is what a machine's sysfs says of its devices, kept: for each
 * device that has a modalias, its devpath, subsystem, modalias, bound
 * driver (and that driver's module), driver_override; and the modules
 * loaded.  Taken on one machine (modalias_snapshot_new_from_sysfs()),
 * written as a file (modalias_snapshot_format()) and read on another
 * (modalias_snapshot_new_from_file()), it answers what sysfs would:
 * modalias_snapshot_foreach() walks it as modalias_sysfs_foreach() walks
 * sysfs, so that a fleet's inventories can be answered offline.
 *
 * The file is a JSON document, version 1:
 * |[
 * {
 *   "version": 1, "kernel": "6.1.0-57-amd64", "arch": "x86_64",
 *   "devices": [
 *     {"devpath": "/devices/pci0000:00/0000:00:02.0", "subsystem": "pci",
 *      "modalias": "pci:v00008086d00001237sv…", "driver": "e1000e",
 *      "driver_module": "e1000e", "driver_override": "vfio-pci"},
 *     {"devpath": "…", …, "modalias": null, "errno": 22, "error": "…"}
 *   ],
 *   "modules": ["e1000e", …],
 *   "builtin": ["8250", "i8042", "printk", …],
 *   "builtin_drivers": ["serial8250", "virtio-pci", …],
 *   "firmware_failures": [
 *     {"devpath": "/devices/pci0000:00/0000:00:14.3",
 *      "file": "iwlwifi-QuZ-a0-hr-b0-72.ucode", "errno": 2}
 *   ]
 * }
 * ]|
 * "driver" is null when no driver is bound; "driver_module" and
 * "driver_override" are written only when set; a device whose modalias
 * could not be read has "modalias": null, its "errno" and the "error" text.
 * "kernel" and "arch" are those of the machine whose devices these are:
 * uname(2) when the running machine's /sys is read, null (unknown) for any
 * other sysfs root (a captured tree) unless modalias_snapshot_set_kernel()
 * said them.  "builtin" and "builtin_drivers" (since libmodalias 4,
 * optional, written together) are what the machine showed built in: each
 * SYSFS_ROOT/module entry without an initstate, and each driver under
 * SYSFS_ROOT/bus/(bus)/drivers without a module link (see
 * modalias_snapshot_is_module_builtin()); a document without them says
 * nothing of built-in modules.
 * "firmware_failures" (since libmodalias 4, optional) are the
 * firmware loads the kernel log says failed ("Direct firmware load for
 * FILE failed with error -2"), in the log's order, each with the device
 * that asked ("devpath" null when the line names none) and the errno,
 * written positive (the reader takes a negative one, as the kernel log
 * writes it, as the same); a document without it (or with null) holds no record of the
 * kernel log.  Strings are written as shared JSON output is: invalid
 * UTF-8 bytes and control characters as "\u00XX", which the reader turns
 * back into those bytes.  The reader takes version 1 only, skips members
 * it does not know, and requires "version", "devices", and each device's
 * "devpath" (below /devices) and "modalias" (or "errno").
 */

/**
 * modalias_snapshot:
 *
 * Opaque object holding a snapshot.
 *
 * Since: 3
 */
struct modalias_snapshot;

/**
 * modalias_snapshot_new_from_sysfs:
 * @ctx: a context; its sysfs root is read.
 * @ret: (out): the snapshot.
 *
 * Walks the sysfs root as modalias_sysfs_foreach() does and records every
 * device it reports (with its error when its modalias could not be read),
 * the modules whose SYSFS_ROOT/module/NAME/initstate is "live", and (since
 * 4) what it shows built in: module entries without an initstate, drivers
 * without a module link (none recorded when the root has neither
 * SYSFS_ROOT/module nor SYSFS_ROOT/bus: a captured tree of devices).  The
 * kernel release and architecture are the running machine's (uname(2))
 * when the sysfs root is "/sys", else unknown (NULL).
 *
 * Returns: 0, what modalias_sysfs_foreach() returned on failure, -ENOMEM.
 *
 * Since: 3
 */
int modalias_snapshot_new_from_sysfs(struct modalias_ctx *ctx,
				     struct modalias_snapshot **ret);

/**
 * modalias_snapshot_new_from_file:
 * @ctx: a context.
 * @path: a snapshot file: a regular file (symlinks are followed).
 * @ret: (out): the snapshot.
 *
 * Reads a snapshot file of at most 64 MiB.  Errors are logged with the
 * file, line and column.  A FIFO, a device or a socket is refused
 * (-EINVAL) before it is opened: its kind is checked on an O_PATH
 * descriptor, so naming one has no effect.
 *
 * Returns: 0; -EBADMSG for a file that is not a snapshot (bad JSON, a
 *   member of the wrong type or missing, a devpath outside /devices, a
 *   modalias that does not parse, a device listed twice);
 *   -EPROTONOSUPPORT for a version other than 1; -EFBIG; -EMEDIUMTYPE
 *   for a file of procfs, sysfs, debugfs, tracefs or securityfs (never
 *   opened: reading one may change it, as /proc/kmsg); the errors of
 *   reading the file.
 *
 * Since: 3
 */
int modalias_snapshot_new_from_file(struct modalias_ctx *ctx, const char *path,
				    struct modalias_snapshot **ret);

/**
 * modalias_snapshot_ref:
 * @snap: (nullable): a snapshot.
 *
 * Returns: @snap.
 *
 * Since: 3
 */
struct modalias_snapshot *modalias_snapshot_ref(struct modalias_snapshot *snap);

/**
 * modalias_snapshot_unref:
 * @snap: (nullable): a snapshot.
 *
 * Returns: NULL when the last reference went, else @snap.
 *
 * Since: 3
 */
struct modalias_snapshot *modalias_snapshot_unref(struct modalias_snapshot *snap);

/**
 * modalias_snapshot_format:
 * @snap: a snapshot.
 * @ret: (out): the document (malloc'ed, NUL-terminated, ending in a
 *   newline); free it with free().
 *
 * Writes the snapshot as its JSON document, one device per line, devices
 * in the order of the sysfs walk and modules by name, so that two
 * snapshots of one machine compare with diff(1).
 *
 * Returns: 0, -EINVAL, -ENOMEM.
 *
 * Since: 3
 */
int modalias_snapshot_format(const struct modalias_snapshot *snap, char **ret);

/**
 * modalias_snapshot_get_kernel:
 * @snap: a snapshot.
 *
 * Returns: (nullable): the kernel release of the machine it was taken on.
 *
 * Since: 3
 */
const char *modalias_snapshot_get_kernel(const struct modalias_snapshot *snap);

/**
 * modalias_snapshot_get_arch:
 * @snap: a snapshot.
 *
 * Returns: (nullable): the machine's architecture (uname -m).
 *
 * Since: 3
 */
const char *modalias_snapshot_get_arch(const struct modalias_snapshot *snap);

/**
 * modalias_snapshot_get_n_devices:
 * @snap: a snapshot.
 *
 * Returns: the number of devices it holds.
 *
 * Since: 3
 */
unsigned int modalias_snapshot_get_n_devices(const struct modalias_snapshot *snap);

/**
 * modalias_snapshot_foreach:
 * @snap: a snapshot.
 * @fn: called for every device, as modalias_sysfs_foreach() calls it:
 *   parents before children, siblings in byte order; with the device's
 *   error when its modalias could not be read.
 * @data: passed to @fn.
 *
 * Returns: 0 after every device, what @fn returned when it stopped, or
 *   -EINVAL.
 *
 * Since: 3
 */
int modalias_snapshot_foreach(const struct modalias_snapshot *snap,
			      modalias_sysfs_fn fn, void *data);

/**
 * modalias_snapshot_get_dev:
 * @snap: a snapshot.
 * @devpath: a device's path ("/devices/…").
 * @ret: (out): the device.
 *
 * Returns: 0; -ENOENT when the snapshot has no such device; the error its
 *   modalias could not be read with when it was taken.
 *
 * Since: 3
 */
int modalias_snapshot_get_dev(const struct modalias_snapshot *snap, const char *devpath,
			      struct modalias_dev **ret);

/**
 * modalias_snapshot_get_driver:
 * @snap: a snapshot.
 * @devpath: a device's path.
 * @driver: (out) (optional) (nullable) (transfer none): as
 *   modalias_sysfs_get_driver() says it.
 * @driver_module: (out) (optional) (nullable) (transfer none): likewise.
 * @driver_override: (out) (optional) (nullable) (transfer none): likewise.
 *
 * The strings belong to @snap.
 *
 * Returns: 0, -ENOENT when the snapshot has no such device, -EINVAL.
 *
 * Since: 3
 */
int modalias_snapshot_get_driver(const struct modalias_snapshot *snap, const char *devpath,
				 const char **driver, const char **driver_module,
				 const char **driver_override);

/**
 * modalias_snapshot_is_module_loaded:
 * @snap: a snapshot.
 * @module: a module name as the kernel writes it.
 *
 * The document's "modules" member: the modules whose /sys/module entry
 * said "live".  A snapshot taken from a captured tree without /sys/module
 * has no such record (since 4 it writes no "modules" member: it cannot say
 * a module is not loaded).
 *
 * Returns: 1 when @module was loaded when the snapshot was taken, 0 when
 *   not, -ENODATA when the snapshot does not record it (a document without
 *   "modules"; since 4), -EINVAL (as the sysfs call, since 4) for a string
 *   that is not a module name.
 *
 * Since: 3
 */
int modalias_snapshot_is_module_loaded(const struct modalias_snapshot *snap, const char *module);

/**
 * modalias_snapshot_is_module_builtin:
 * @snap: a snapshot.
 * @module: a module name as the kernel writes it.
 *
 * What modalias_sysfs_is_module_builtin() said on the machine when the
 * snapshot was taken: @module has a /sys/module entry without an
 * initstate, or a driver of its name ('_' or '-') has no module link.  A
 * snapshot records these names since version 4 of the library (the
 * document's "builtin" and "builtin_drivers" members); one written before
 * says nothing of them, and neither does a snapshot taken from a captured
 * tree that has neither /sys/module nor /sys/bus.
 *
 * Returns: 1 when @module was built in, 0 when not, -ENODATA when the
 *   snapshot does not record it (a document without "builtin"), -EINVAL
 *   (as the sysfs call) for a string that is not a module name.
 *
 * Since: 4
 */
int modalias_snapshot_is_module_builtin(const struct modalias_snapshot *snap, const char *module);

/**
 * modalias_snapshot_set_kernel:
 * @snap: a snapshot.
 * @kernel: (nullable): the kernel release of the machine whose devices
 *   these are; NULL: unknown.
 * @arch: (nullable): that machine's architecture (uname -m); NULL: unknown.
 *
 * Says which kernel a snapshot is of, where the snapshot cannot know: a
 * captured sysfs tree.
 *
 * Returns: 0, -EINVAL, -ENOMEM (nothing changed).
 *
 * Since: 4
 */
int modalias_snapshot_set_kernel(struct modalias_snapshot *snap, const char *kernel, const char *arch);

/**
 * modalias_firmware_failure_fn:
 * @data: the pointer given to modalias_snapshot_foreach_firmware_failure().
 * @devpath: (nullable): the device that asked ("/devices/…"), NULL when
 *   the kernel's line names none.
 * @file: the firmware file, as the driver asked for it.
 * @error: the negative errno the load failed with (-ENOENT: no such file).
 *
 * Returns: 0 to go on, anything else to stop.
 *
 * Since: 4
 */
typedef int (*modalias_firmware_failure_fn)(void *data, const char *devpath, const char *file, int error);

/**
 * modalias_snapshot_add_firmware_failure:
 * @snap: a snapshot.
 * @devpath: (nullable): the device that asked ("/devices/…"), NULL when
 *   the kernel log's line names none.
 * @file: (nullable): the firmware file the kernel failed to load; NULL
 *   records only that the kernel log was read.
 * @error: the negative errno the load failed with.
 *
 * Records a failed firmware load read from the machine's kernel log (the
 * library does not read the log itself).  A snapshot that has been given
 * one (or @file NULL) holds a record of the kernel log, written as
 * "firmware_failures"; a @devpath and @file already recorded are not
 * added again.
 *
 * Returns: 0; -EINVAL for a @devpath that is not a path below /devices, an
 *   empty @file or an @error outside -4095…-1; -ENOMEM.
 *
 * Since: 4
 */
int modalias_snapshot_add_firmware_failure(struct modalias_snapshot *snap, const char *devpath, const char *file,
					   int error);

/**
 * modalias_snapshot_foreach_firmware_failure:
 * @snap: a snapshot.
 * @fn: called for every failed firmware load recorded, in the kernel log's
 *   order.
 * @data: passed to @fn.
 *
 * Returns: 0 after every failure (none included), what @fn returned when
 *   it stopped; -ENODATA when the snapshot holds no record of the kernel
 *   log (it could not be read, or the snapshot was written without one);
 *   -EINVAL.
 *
 * Since: 4
 */
int modalias_snapshot_foreach_firmware_failure(const struct modalias_snapshot *snap,
					       modalias_firmware_failure_fn fn, void *data);


/**
 * SECTION:names
 *
 * The names people know devices by: vendor, device and class names from
 * the machine's hardware databases, pci.ids and usb.ids (the format of the
 * pci.ids project, https://pci-ids.ucw.cz/, which usb.ids shares), as
 * lspci and lsusb show them.  Only pci and usb devices have names.  A
 * database is read on the first lookup that needs it (at most 16 MiB,
 * kept until the object is freed), so making the object costs nothing;
 * an absent or unreadable database means no names, not an error.
 * Lookups may be made from several threads at once.
 */

/**
 * modalias_names:
 *
 * Opaque object holding the hardware databases, read as they are needed.
 *
 * Since: 4
 */
struct modalias_names;

/**
 * modalias_names_new:
 * @ctx: a context.
 * @dir: the directory that holds pci.ids and usb.ids, or NULL for the
 *   system's: /usr/share/misc (Debian's pci.ids and usb.ids packages), then
 *   /usr/share/hwdata (hwdata's), the first that has the file.
 * @ret: (out): the new object, with one reference; nothing is read yet.
 *
 * Returns: 0, -EINVAL for a NULL @ctx or @ret, -ENOMEM.
 *
 * Since: 4
 */
int modalias_names_new(struct modalias_ctx *ctx, const char *dir,
		       struct modalias_names **ret);

/**
 * modalias_names_ref:
 * @names: a names object, or NULL.
 *
 * Returns: @names, with one more reference.
 *
 * Since: 4
 */
struct modalias_names *modalias_names_ref(struct modalias_names *names);

/**
 * modalias_names_unref:
 * @names: a names object, or NULL.
 *
 * Drops one reference and frees the object (and the databases read) with
 * the last one.
 *
 * Returns: @names while references remain, NULL once it is freed.
 *
 * Since: 4
 */
struct modalias_names *modalias_names_unref(struct modalias_names *names);

/**
 * modalias_names_lookup_ids:
 * @names: a names object.
 * @bus: "pci" (pci.ids) or "usb" (usb.ids); any other bus has no names.
 * @vendor: the vendor id.
 * @device: the device (usb: product) id.
 * @vendor_name: (out) (optional): the vendor's name ("Intel Corporation"),
 *   or NULL when the database has none.
 * @device_name: (out) (optional): the device's name under that vendor,
 *   or NULL.
 *
 * The names stay valid until @names is freed.
 *
 * Returns: how many of the two names were found (0, 1 or 2), -EINVAL for
 * a NULL @names or @bus.
 *
 * Since: 4
 */
int modalias_names_lookup_ids(struct modalias_names *names, const char *bus,
			      unsigned int vendor, unsigned int device,
			      const char **vendor_name, const char **device_name);

/**
 * modalias_names_lookup:
 * @names: a names object.
 * @dev: a device (modalias_parse() of a modalias will do).
 * @vendor_name: (out) (optional): its vendor's name, or NULL.
 * @device_name: (out) (optional): its device's name, or NULL.
 * @class_name: (out) (optional): its class's name, or NULL: for pci the
 *   subclass's name where the database has one ("SATA controller"), else the
 *   base class's; for usb the interface class's ("Human Interface Device"),
 *   or the device class's when the interface class is 00.
 *
 * The names of the ids in @dev's modalias, as modalias_names_lookup_ids()
 * gives them, and its class.  The names stay valid until @names is freed.
 *
 * Returns: how many of the three names were found (0 to 3; 0 for a device
 * of another bus), -EINVAL for a NULL @names or @dev.
 *
 * Since: 4
 */
int modalias_names_lookup(struct modalias_names *names,
			  const struct modalias_dev *dev,
			  const char **vendor_name, const char **device_name,
			  const char **class_name);


/**
 * SECTION:table
 *
 * An alias table answers "which modules does this modalias want?" the way
 * kmod_module_new_from_lookup() does, from the same sources in the same
 * order (kmod 30), the first source with a match winning: modprobe.d
 * "alias" lines, module names (modules.dep), symbols (modules.symbols),
 * modprobe.d install then remove commands, modules.alias (and any table
 * loaded with modalias_table_load_file(), modalias_table_load_buffer() or
 * modalias_table_add()), builtin module names (modules.builtin), and the
 * builtin modules' aliases (modules.builtin.modinfo).  modules.alias lines
 * are read as depmod writes them: the module is the last word, the pattern
 * all before it, spaces included.
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
 * Each file is read whole, and only when it is a regular file of 64 MiB at
 * most (a distribution's modules.alias is about 1.5 MiB).
 *
 * Returns: the number of malformed lines that were skipped (each logged as
 * FILE:LINE with the reason), or a negative errno: -ENOENT when there is
 * no modules.alias, -EFBIG for a file larger than 64 MiB, -EINVAL for one
 * that is not a regular file, -EMEDIUMTYPE for one of procfs, sysfs,
 * debugfs, tracefs or securityfs (never opened: reading one may change it,
 * as /proc/kmsg), other errors of reading files, -ENOMEM.
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
 * specific to this library version and this machine, and carries a
 * CRC-32C of its contents.  The directory of @path, and every directory
 * above it, must be owned by root or the effective user and not writable by
 * group or others; the temporary file is made there with O_EXCL and
 * O_NOFOLLOW and renamed relative to the checked directory.
 *
 * Returns: 0; -EPERM when the directory is not trusted so (logged, naming
 * the path and why); or a negative errno of writing the file (logged).
 *
 * Since: 1
 */
int modalias_table_save(struct modalias_table *table, const char *path);

/**
 * modalias_table_new_from_cache:
 * @ctx: a context.
 * @path: an index cache written by modalias_table_save().
 * @dir: (nullable): the module directory the cache must be current for: it
 *   must be the directory the table was loaded from (the same path, and
 *   the same device and inode), and the device, inode, size, mtime and ctime of
 *   every file the table was loaded from must be as they were; NULL to
 *   skip the check.
 * @ret: (out): the table, its arrays mapped read-only from the file (a
 *   later change copies them to memory first).
 *
 * The file and every directory above it must be owned by root or the
 * effective user and not writable by group or others, and the file may not
 * be a symlink.  Nothing in it is believed before it is checked: its
 * checksum, then every offset, length and count against the file's size,
 * every index into an array and every string offset, and that every walk
 * of its index ends.
 *
 * Returns: the number of malformed lines skipped when the table was read
 * from its sources (as modalias_table_new_from_directory() returned then);
 * -ENOENT when there is no such file; -EPERM or -ELOOP when it is not
 * trusted so (logged); -ESTALE when a source changed or the cache is of
 * another directory (logged at info); -EINVAL when the file
 * is not a cache of this library version or is damaged (logged once, with
 * why); other errors of reading it.
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
 * when @cache_dir is writable, its cache written for the next time.  The
 * cache's file is named by the SHA-256 of @dir as given, and is used only
 * for the directory it records (see modalias_table_new_from_cache()).
 *
 * @cache_dir, every directory above it and the cache file are held to the
 * rules of modalias_table_new_from_cache(): when one is not trusted the
 * cache is ignored with one message, never read or written through, and
 * the table comes from @dir (an untrusted cache file in a trusted directory
 * is replaced by renaming a new one over it).  A missing @cache_dir is made
 * (0755) only inside a trusted parent.  A damaged cache is logged once and
 * replaced.
 *
 * Returns: as modalias_table_new_from_directory(), the count of malformed
 * lines included when the table came from the cache.
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
 * Named @config_paths may be anybody's, and libkmod prints what it cannot
 * parse (a line's first word, the file's name) on standard error before a
 * log function can be set, and opens whatever it lists: so the library
 * reads each file libkmod would read first.  Each must be a regular file
 * (or /dev/null) of at most 1 MiB, not of a kernel file system, and
 * neither its name nor a line's first word may hold a control character
 * (C0, DEL, C1).  Where another user may change them (a file or a
 * directory on the way not root's or the caller's, or writable by group
 * or others), libkmod is handed a copy of what was checked (in a
 * directory of the process's own, mode 0700, in $TMPDIR or /tmp, whose
 * names are removed as soon as libkmod has read it, so that nothing is
 * left behind even by a process killed outright; a file named as a path,
 * which libkmod knows by its name, stays until the loader is freed);
 * otherwise the paths as they are.  The system's
 * configuration (NULL) is read by libkmod as it is.
 *
 * Returns: 0 or a negative errno: for named paths, -EINVAL for a file that
 * is not a regular file, -EBADMSG for a control character, -EFBIG past 1
 * MiB (each logged naming the file and line), the errors of making the
 * copy; -ENOMEM.
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
 * Adds its aliases to the modules.alias source.  The file must be a
 * regular file of 64 MiB at most.
 *
 * Returns: the number of malformed lines skipped (each logged as
 * FILE:LINE), or a negative errno: -EFBIG past 64 MiB, -EINVAL for a file
 * that is not a regular file, -EMEDIUMTYPE for one of a kernel file system
 * (as modalias_table_new_from_directory()), the errors of reading it (each
 * logged with its name).
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
 * modalias_table_add_blacklist:
 * @table: a table.
 * @module: a module name.
 *
 * Marks @module as blacklisted (as a modprobe.d "blacklist" line does;
 * modalias_table_load_config() adds those).  Lookups still report it.
 *
 * Returns: 0, -EINVAL, -ENOMEM.
 *
 * Since: 1
 */
int modalias_table_add_blacklist(struct modalias_table *table, const char *module);

/**
 * modalias_table_add_blacklist_from:
 * @table: a table.
 * @module: a module name.
 * @file: (nullable): where the blacklist is said (a settings file of the
 *   program's own, say), as modalias_table_get_blacklist_origin() tells it;
 *   NULL or "": "(added)", as modalias_table_add_blacklist().
 * @line: its line in @file, 0 when not known.
 *
 * As modalias_table_add_blacklist(), with where it is said.  A table keeps
 * at most 256 files of origin: past them, "(added)" and line 0.
 *
 * Returns: 0, -EINVAL, -ENOMEM.
 *
 * Since: 4
 */
int modalias_table_add_blacklist_from(struct modalias_table *table, const char *module, const char *file,
				      unsigned int line);

/**
 * modalias_table_is_blacklisted:
 * @table: a table.
 * @module: a module name ('-' and '_' alike).
 *
 * Returns: whether modprobe.d or modalias_table_add_blacklist() blacklists
 * @module.
 *
 * Since: 1
 */
bool modalias_table_is_blacklisted(struct modalias_table *table, const char *module);

/**
 * modalias_table_is_current:
 * @table: a table.
 *
 * Whether the files of the module directory @table was read from (or its
 * index cache was made from) are still as they were: a long-running
 * program calls it before a lookup and opens the table again when depmod
 * rewrote them (a kernel package installed modules).  It only stats the
 * files.  A table not read from a module directory is always current.
 *
 * Returns: 1 when current, 0 when a file changed (logged at info, naming
 * it), or a negative errno (-EINVAL for a NULL table; a file that cannot
 * be examined).
 *
 * Since: 3
 */
int modalias_table_is_current(struct modalias_table *table);

/**
 * modalias_table_get_blacklist_origin:
 * @table: a table.
 * @module: a module name ('-' and '_' alike).
 * @line: (out) (optional): the line of the file, 0 when not known.
 *
 * Where @module is blacklisted: the modprobe.d file that says so and its
 * line (the first such line of the files libkmod reads, in its order),
 * "modprobe.d" when libkmod blacklists it from elsewhere (the kernel
 * command line); otherwise the file and line given to
 * modalias_table_add_blacklist_from(), or "(added)" (line 0) for
 * modalias_table_add_blacklist().
 *
 * Returns: (nullable): the file, or NULL when @module is not blacklisted.
 *
 * Since: 3
 */
const char *modalias_table_get_blacklist_origin(struct modalias_table *table, const char *module,
						unsigned int *line);

/**
 * modalias_table_get_weakdeps:
 * @table: a table.
 * @module: a module name ('-' and '_' alike).
 * @deps: (out) (transfer none): @module's weak dependencies, NULL-terminated,
 *   valid as long as @table; an empty list when it has none.
 *
 * The weak dependencies of @module, as the modules.weakdep file of the
 * table's module directory lists them (kmod 33's depmod and later write
 * it from the modules' MODULE_WEAKDEP()), in that file's order.  A weak
 * dependency is not loaded with its module: modprobe and
 * modalias_loader_load() leave it out; initramfs generators copy it beside
 * the module, which may ask for it later.  The file is read when first
 * asked (that first call is not to be made from two threads at once; later
 * ones may); a table not read from a module directory, or a directory
 * without the file (depmod before kmod 33), has none.
 *
 * Returns: the number of weak dependencies (0 when none), or a negative
 * errno: -EINVAL for a NULL argument, -ENOMEM, or why modules.weakdep
 * cannot be read (logged, naming it).
 *
 * Since: 4
 */
int modalias_table_get_weakdeps(struct modalias_table *table, const char *module, const char *const **deps);

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
 * the first 4095 bytes of @alias are considered, and like kmod there is no
 * answer when @alias and the name of a module it matches do not fit kmod's
 * 4096-byte key (the name, '\\', the alias, a NUL): kmod fails the lookup.
 *
 * Returns: the number of modules found (0: none), -EINVAL for an alias
 * with unbalanced brackets, -ENAMETOOLONG for an alias too long for kmod
 * (each logged), -ENOMEM.
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
 * modalias_table_is_module_builtin:
 * @table: a table.
 * @module: a module name ('-' and '_' alike).
 *
 * Whether @table's kernel has @module built in: named in its
 * modules.builtin, or in its modules.builtin.modinfo (which also names the
 * drivers of bool options, that modules.builtin leaves out), or given a
 * builtin alias.  Unlike a lookup of the name, which answers as kmod does
 * (modules.builtin only), this answers whether the code is in the kernel.
 *
 * Returns: 1 built in, 0 not (or not known to @table), -EINVAL for an
 * empty argument.
 *
 * Since: 4
 */
int modalias_table_is_module_builtin(struct modalias_table *table, const char *module);

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
 * Returns: the file the pattern came from: for configuration
 * (modalias_table_load_config()), the modprobe.d file whose "alias",
 * "install" or "remove" line says it (the first such line of the files
 * libkmod reads, in its order), "modprobe.d" when it cannot be found there;
 * "(added)" for modalias_table_add(); or NULL.  (Before version 4, every
 * configuration pattern's was "modprobe.d", its line 0.)
 *
 * Since: 1
 */
const char *modalias_result_get_pattern_origin(const struct modalias_result *result,
					       unsigned int index, unsigned int pattern,
					       unsigned int *line);

/**
 * modalias_nearest_fn:
 * @data: the caller's.
 * @module: the module of a near pattern.
 * @pattern: the pattern, as the table holds it.
 * @claims: the last field before @differs that the pattern names (a
 *   value other than "*") and that matches.
 * @differs: the first field that differs.  Both are field names, as
 *   modalias_bus_field_name() gives them.
 * @matched: how many fields before @differs the pattern names and matches
 *   (at least 1).
 *
 * Returns: 0 to go on, anything else to stop.
 *
 * Since: 3
 */
typedef int (*modalias_nearest_fn)(void *data, const char *module, const char *pattern,
				   const char *claims, const char *differs, unsigned int matched);

/**
 * modalias_table_find_nearest:
 * @table: a table.
 * @alias: a modalias that nothing may match.
 * @fn: called for each nearest pattern, in the table's order.
 * @data: passed to @fn.
 *
 * The patterns of @alias's bus (modules.alias and the builtin aliases)
 * nearest to @alias: each pattern and @alias are cut into the bus's fields
 * and compared field by field with kmod's glob, up to the first field that
 * differs: first the fields that say what kind of device it is (PCI's
 * baseclass, subclass and interface; USB's device and interface class,
 * subclass and protocol; SDIO's class), then the others, each group in the
 * bus's order.  The patterns that name (with a value other than "*") and
 * match the most class fields before it, then the most fields, are
 * reported (of those, the ones whose value in that field has the most
 * leading characters in common with @alias's), each with that field; a
 * class group whose class is vendor-specific (FF) names no kind of device,
 * and its fields do not count.  So a pattern of another class is never
 * near, and one of the device's class is nearer than one of its vendor:
 * what a driver nearly claims ("r8152 claims idVendor 0BDA but not
 * idProduct 8157").  A pattern that matches every field is a match, not
 * near, and is not reported; neither is one that names no field it matches.
 *
 * Returns: the number of patterns reported, 0 when none is near; -EOPNOTSUPP when @alias is not of a bus written as the
 * generic sequence of tagged numbers (pci, usb, hid, …), -EINVAL.
 *
 * Since: 3 (the class fields first since 4)
 */
int modalias_table_find_nearest(struct modalias_table *table, const char *alias,
				modalias_nearest_fn fn, void *data);

/**
 * SECTION:loader
 *
 * Loading modules the way udev does: through libkmod (loaded on first use),
 * with their dependencies and softdeps (kmod_module_probe_insert_module()),
 * modprobe.d blacklists applied by module name (KMOD_PROBE_APPLY_BLACKLIST),
 * builtin and already loaded modules skipped.  A loader holds one libkmod
 * context, its indexes loaded once; modalias_loader_revalidate() reloads
 * them when depmod or the configuration changed them.
 */
struct modalias_loader;

/**
 * modalias_load_state:
 * @MODALIAS_LOAD_INSERTED: the module was inserted.
 * @MODALIAS_LOAD_WOULD_INSERT: dry run: it would have been inserted.
 * @MODALIAS_LOAD_COMMAND: a modprobe.d install command ran (or would run).
 * @MODALIAS_LOAD_LIVE: it was loaded already.
 * @MODALIAS_LOAD_BUILTIN: it is built into the kernel.
 * @MODALIAS_LOAD_BLACKLISTED: modprobe.d (or modalias_loader_add_blacklist())
 *   forbids it.
 * @MODALIAS_LOAD_FAILED: inserting it failed (the errno comes with it).
 * @MODALIAS_LOAD_NOT_FOUND: there is no such module: libkmod knows neither
 *   its file nor an install command for it (modprobe: "Module X not found
 *   in directory D"), or, for a name from the table (a modprobe.d alias
 *   may name anything), the name is not a module name (see
 *   modalias_loader_load_module()); the errno (-ENOENT, or -EINVAL /
 *   -ENAMETOOLONG for such a name) comes with it.  A dry run reports it
 *   too, where "modprobe -n -v" prints nothing for it.  Since: 2.
 *
 * What happened to one module.  Callers should expect states added in
 * later versions (modalias_load_state_name() names them).
 *
 * Since: 1
 */
enum modalias_load_state {
	MODALIAS_LOAD_INSERTED = 0,
	MODALIAS_LOAD_WOULD_INSERT = 1,
	MODALIAS_LOAD_COMMAND = 2,
	MODALIAS_LOAD_LIVE = 3,
	MODALIAS_LOAD_BUILTIN = 4,
	MODALIAS_LOAD_BLACKLISTED = 5,
	MODALIAS_LOAD_FAILED = 6,
	MODALIAS_LOAD_NOT_FOUND = 7,
	_MODALIAS_LOAD_STATE_PAD = 0x7fffffff, /* keeps the enum int-sized */
};

/**
 * MODALIAS_LOAD_DRY_RUN:
 *
 * Flag of the load functions: say what would be inserted, insert nothing.
 *
 * Since: 1
 */
#define MODALIAS_LOAD_DRY_RUN 0x1u

/**
 * modalias_load_fn:
 * @data: the pointer given with the function.
 * @module: the module's name.
 * @detail: its path (what "modprobe -n -v" prints after "insmod"), or the
 *   install command, or "" when nothing was to be done.
 * @options: its options from modprobe.d, exactly as libkmod passes them
 *   (modprobe -n -v prints "insmod DETAIL OPTIONS"), or "".
 * @state: what happened.
 * @err: for %MODALIAS_LOAD_FAILED and %MODALIAS_LOAD_NOT_FOUND, the
 *   negative errno; else 0.
 *
 * Called once for every module a load concerns, dependencies first.
 *
 * This is how the library reports a module that failed or was not found:
 * it does not log those at error level itself (only at LOG_INFO, for
 * whoever asked for details), so a caller that logs what @fn tells it
 * logs each failure once.  libkmod's own messages still come through the
 * context's log, with their priority.
 *
 * Since: 1
 */
typedef void (*modalias_load_fn)(void *data, const char *module, const char *detail,
				 const char *options, enum modalias_load_state state, int err);

/**
 * modalias_loader_new:
 * @ctx: a context.
 * @dir: the module directory, or NULL for /lib/modules/$(uname -r).
 * @config_paths: modprobe.d files or directories (NULL-terminated), NULL
 *   for the system's, an empty list for none.
 * @ret: (out): the loader.
 *
 * Named @config_paths are checked and copied as
 * modalias_table_load_config() says; the copy is kept while the loader
 * lives (libkmod stats it), and modalias_loader_revalidate() reads them
 * again when a path's modification time changed.
 *
 * libkmod opens the module directory's files itself, by path and
 * blocking: its indexes (modules.dep.bin, modules.alias.bin,
 * modules.symbols.bin, modules.builtin.alias.bin, modules.builtin.bin),
 * modules.builtin.modinfo, and modules.softdep and modules.weakdep as
 * configuration.  Each is checked first (since 4: a FIFO there hung
 * libkmod): it must be a regular file, not of a kernel file system, or
 * absent; modules.softdep and modules.weakdep are checked as a named
 * configuration file is.  One that is not is logged, naming it and what
 * it is ("not a regular file (a FIFO)").  The check is made again by
 * modalias_loader_revalidate() and before each lookup (libkmod opens an
 * index it could not map at every lookup).
 *
 * Returns: 0; -EOPNOTSUPP when libkmod cannot be loaded; the errors of
 * modalias_table_load_config() for named paths; -EINVAL for a file of the
 * module directory that is not a regular file, -EISDIR for a directory,
 * -EMEDIUMTYPE for one of a kernel file system; -ENOMEM.
 *
 * Since: 1
 */
int modalias_loader_new(struct modalias_ctx *ctx, const char *dir, const char *const *config_paths,
			struct modalias_loader **ret);

/**
 * modalias_loader_ref:
 * @loader: a loader, or NULL.
 *
 * Returns: @loader.
 *
 * Since: 1
 */
struct modalias_loader *modalias_loader_ref(struct modalias_loader *loader);

/**
 * modalias_loader_unref:
 * @loader: a loader, or NULL.
 *
 * Returns: @loader while references remain, NULL once it is freed.
 *
 * Since: 1
 */
struct modalias_loader *modalias_loader_unref(struct modalias_loader *loader);

/**
 * modalias_loader_add_blacklist:
 * @loader: a loader.
 * @module: a module name never to load (on top of modprobe.d's),
 *   normalised as libkmod does ("mod-x" and "mod_x.ko" are "mod_x").
 *
 * Returns: 0; -EINVAL for a name that is not a module name, -ENAMETOOLONG
 * for one too long (see modalias_loader_load_module(); since 2, version 1
 * refused only ""); -ENOMEM.
 *
 * Since: 1
 */
int modalias_loader_add_blacklist(struct modalias_loader *loader, const char *module);

/**
 * modalias_loader_revalidate:
 * @loader: a loader.
 *
 * Reloads libkmod's indexes and configuration when they changed on disk
 * (kmod_validate_resources()), their files checked as modalias_loader_new()
 * says.
 *
 * Returns: 1 when they were reloaded, 0 when they were current, or a
 * negative errno (logged; the loader then goes on with what it had read,
 * and the next call tries again).
 *
 * Since: 1
 */
int modalias_loader_revalidate(struct modalias_loader *loader);

/**
 * modalias_modinfo_fn:
 * @data: the caller's.
 * @module: the module that declares @value (@module itself, or one of its
 *   dependencies), as libkmod names it.
 * @value: one value of the key, or NULL when @err is set.
 * @err: 0, or the negative errno of reading @module's modinfo (-ENOENT:
 *   no .ko file, nor a builtin's modules.builtin.modinfo entry).
 *
 * Returns: 0 to go on, anything else to stop.
 *
 * Since: 3
 */
typedef int (*modalias_modinfo_fn)(void *data, const char *module, const char *value, int err);

/**
 * MODALIAS_MODINFO_DEPENDENCIES:
 *
 * modalias_loader_get_modinfo(): the module's dependencies too, as
 * modules.dep lists them (all of them, depmod's order).
 *
 * Since: 3
 */
#define MODALIAS_MODINFO_DEPENDENCIES (1u << 0)

/**
 * modalias_loader_get_modinfo:
 * @loader: a loader.
 * @module: a module name (as modalias_loader_load_module() takes it).
 * @key: a modinfo key: "firmware", "description", …
 * @flags: 0 or %MODALIAS_MODINFO_DEPENDENCIES.
 * @fn: told each value, in the module's order (a module whose modinfo
 *   cannot be read is told once, with its error).
 * @data: passed to @fn.
 *
 * What `modinfo -F KEY` prints: each value of @key that @module declares,
 * read by libkmod (kmod_module_get_info(): the .ko file, or
 * modules.builtin.modinfo for a builtin module), and with
 * %MODALIAS_MODINFO_DEPENDENCIES its dependencies' values after its own.
 * A module's file must be a regular file, not of a kernel file system
 * (since 4): one that is not is logged, naming it and what it is, and told
 * to @fn with -EINVAL (-EISDIR, -EMEDIUMTYPE); libkmod never opens it.
 *
 * Returns: the number of values told; -EINVAL for a bad argument or a
 * string that is not a module name; the errors of modalias_loader_new()
 * for the module directory's files; or libkmod's negative errno.
 *
 * Since: 3
 */
int modalias_loader_get_modinfo(struct modalias_loader *loader, const char *module, const char *key,
				unsigned int flags, modalias_modinfo_fn fn, void *data);

/**
 * modalias_loader_load_module:
 * @loader: a loader.
 * @module: a module name.
 * @flags: 0 or %MODALIAS_LOAD_DRY_RUN.
 * @fn: (nullable): told about every module concerned.
 * @data: passed to @fn.
 *
 * Inserts @module with its dependencies and softdeps.
 *
 * @module must be a module name, as libkmod copies names into fixed
 * buffers (PATH_MAX bytes, and kmod_module_get_initstate() of libkmod 30
 * and older overflows its buffer for names of PATH_MAX - 12 bytes or
 * more): at most NAME_MAX (255) bytes (a module is the file NAME.ko and
 * the directory /sys/module/NAME), no '/', no control character, and not
 * empty once normalised as libkmod does ('-' becomes '_', the name ends
 * at the first '.').  Any other string is refused, and logged, before
 * libkmod is called (since 2; version 1 passed it to libkmod).
 *
 * A module that does not exist is reported to @fn as
 * %MODALIAS_LOAD_NOT_FOUND with -ENOENT, and the function returns -ENOENT
 * (since 2; version 1 reported %MODALIAS_LOAD_WOULD_INSERT on a dry run).
 *
 * libkmod opens each module's file to insert it.  The file of every module
 * that would be inserted (@module, its dependencies and softdeps: kmod's
 * dry run is asked first) must be a regular file, not of a kernel file
 * system (since 4: a FIFO hung the insertion): one that is not is logged,
 * naming it and what it is, and reported to @fn as %MODALIAS_LOAD_FAILED
 * with -EINVAL (-EISDIR, -EMEDIUMTYPE), on a dry run too; nothing is then
 * inserted.  A check, then libkmod's open by path: whoever can replace
 * the files in the module directory between the two can supply a module
 * anyway.
 *
 * Returns: the number of modules inserted (or that would be); -EINVAL for
 * a name that is not a module name, -ENAMETOOLONG for one longer than
 * NAME_MAX; -ENOENT for no such module; the errno of a module's file
 * refused, or of modalias_loader_new()'s check of the module directory's
 * files; or the negative errno of the insertion that failed.
 *
 * Since: 1
 */
int modalias_loader_load_module(struct modalias_loader *loader, const char *module,
				unsigned int flags, modalias_load_fn fn, void *data);

/**
 * modalias_loader_load:
 * @loader: a loader.
 * @table: the table that resolves @alias.
 * @alias: a modalias (or anything modalias_table_lookup() takes).
 * @flags: 0 or %MODALIAS_LOAD_DRY_RUN.
 * @fn: (nullable): told about every module concerned.
 * @data: passed to @fn.
 *
 * Loads every module @alias resolves to, as udev's "kmod load" does.
 * Each module is reported to @fn; a name in the table that is not a module
 * name (see modalias_loader_load_module()) is reported as
 * %MODALIAS_LOAD_NOT_FOUND with -EINVAL or -ENAMETOOLONG, and libkmod is
 * not asked about it.
 *
 * Returns: the number of modules inserted (or that would be), or the
 * negative errno of the first failure (the other modules are still tried);
 * -EINVAL, with nothing reported to @fn, for an @alias that is not one
 * (unbalanced brackets).
 *
 * Since: 1
 */
int modalias_loader_load(struct modalias_loader *loader, struct modalias_table *table,
			 const char *alias, unsigned int flags, modalias_load_fn fn, void *data);

/**
 * modalias_load_state_name:
 * @state: a state.
 *
 * Returns: its name ("inserted", "already loaded", …), or NULL.
 *
 * Since: 1
 */
const char *modalias_load_state_name(enum modalias_load_state state);

/**
 * SECTION:map
 *
 * The legacy map files that module-init-tools' depmod wrote until 2012
 * (modules.usbmap, modules.pcimap, modules.ieee1394map, modules.ccwmap,
 * modules.isapnpmap, modules.inputmap, modules.ofmap, modules.seriomap) and
 * the hotplug user maps of the same form (/etc/hotplug/usb.usermap): one row
 * per device-table entry, the module first, then the entry's fields.  A map
 * is read once and does not change.  Its rows can be matched against a
 * device the way the kernel matches its device tables (by the entry's
 * match_flags), turned into modules.alias patterns as the kernel's
 * file2alias does, and loaded into an alias table; an alias table's
 * patterns can be written back as map rows.
 *
 * Fields are named as in the files' headers: usb: match_flags, idVendor,
 * idProduct, bcdDevice_lo, bcdDevice_hi, bDeviceClass, bDeviceSubClass,
 * bDeviceProtocol, bInterfaceClass, bInterfaceSubClass, bInterfaceProtocol,
 * driver_info; pci: vendor, device, subvendor, subdevice, class,
 * class_mask, driver_data; ieee1394: match_flags, vendor_id, model_id,
 * specifier_id, version; ccw: match_flags, cu_type, cu_model, dev_type,
 * dev_model; isapnp: cardvendor, carddevice, driver_data, and the repeated
 * vendor and function (one item per PNP id of the row); input: matchBits,
 * bustype, vendor, product, version, the bitmaps evBits, keyBits, relBits,
 * absBits, mscBits, ledBits, sndBits, ffBits, swBits (one item per word,
 * item 0 the lowest; rows of 14 numbers have a zero swBits) and
 * driver_info; of: the strings name, type and compatible; serio: type,
 * extra, id, proto.  modalias_map_type_field_kind() tells each column's
 * kind (since 2).
 */
struct modalias_map;

/**
 * modalias_map_type:
 * @MODALIAS_MAP_USB: modules.usbmap
 * @MODALIAS_MAP_PCI: modules.pcimap
 * @MODALIAS_MAP_IEEE1394: modules.ieee1394map
 * @MODALIAS_MAP_CCW: modules.ccwmap
 * @MODALIAS_MAP_ISAPNP: modules.isapnpmap (rows from the pnp and pnp_card
 *   tables; its devices are on the "pnp" bus)
 * @MODALIAS_MAP_INPUT: modules.inputmap
 * @MODALIAS_MAP_OF: modules.ofmap
 * @MODALIAS_MAP_SERIO: modules.seriomap
 *
 * The kinds of map file.  The values are fixed.
 *
 * Since: 1
 */
enum modalias_map_type {
	MODALIAS_MAP_USB = 0,
	MODALIAS_MAP_PCI = 1,
	MODALIAS_MAP_IEEE1394 = 2,
	MODALIAS_MAP_CCW = 3,
	MODALIAS_MAP_ISAPNP = 4,
	MODALIAS_MAP_INPUT = 5,
	MODALIAS_MAP_OF = 6,
	MODALIAS_MAP_SERIO = 7,
};

/**
 * modalias_map_flags:
 * @MODALIAS_MAP_DIALECT_2_6: write aliases as kernels before 3.x did: USB
 *   patterns without the "in" field, one OF pattern per entry (with a
 *   trailing '*'), ISAPnP ids without their "acpi*:" twin.
 *
 * Flags of modalias_map_get_aliases() and modalias_table_load_map().
 *
 * Since: 1
 */
enum modalias_map_flags {
	MODALIAS_MAP_DIALECT_2_6 = 1 << 0,
};

/**
 * modalias_map_type_name:
 * @type: a #modalias_map_type.
 *
 * Returns: its name ("usb", "pci", "ieee1394", "ccw", "isapnp", "input",
 * "of", "serio": the file is modules.NAMEmap), or NULL for an unknown type.
 *
 * Since: 1
 */
const char *modalias_map_type_name(int type);

/**
 * modalias_map_type_from_name:
 * @name: a map type's name, as modalias_map_type_name() gives it ("usb",
 *   "pci", …).
 *
 * Returns: the #modalias_map_type of that name, -EINVAL for any other
 * string or NULL.
 *
 * Since: 2
 */
int modalias_map_type_from_name(const char *name);

/**
 * modalias_map_type_field_name:
 * @type: a #modalias_map_type.
 * @index: 0, 1, 2, …
 *
 * Returns: the name of the @index-th column of the map type, or NULL past
 * the last.
 *
 * Since: 1
 */
const char *modalias_map_type_field_name(int type, unsigned int index);

/**
 * modalias_map_field_kind:
 * @MODALIAS_MAP_FIELD_NUMBER: one number: item 0 of modalias_map_get_field().
 * @MODALIAS_MAP_FIELD_BITMAP: an inputmap bitmap (evBits … swBits): one
 *   item per word, item 0 the lowest word (modalias_map_get_word_bits()
 *   tells the word size); the file writes the words the other way round,
 *   highest first, separated by ':' ("1:0:ffff0000").
 * @MODALIAS_MAP_FIELD_LIST: a repeated column: one item per occurrence, in
 *   the file's order (isapnp vendor and function: item k of both is the
 *   row's k-th PNP id; a card row may have none).
 * @MODALIAS_MAP_FIELD_STRING: a string (the ofmap columns): read with
 *   modalias_map_get_string().
 *
 * What a map column holds, as modalias_map_type_field_kind() tells it: the
 * two list kinds may have any number of items in a row (see
 * modalias_map_get_field_count()), the other two have one.  The values
 * are fixed.
 *
 * Since: 2
 */
enum modalias_map_field_kind {
	MODALIAS_MAP_FIELD_NUMBER = 0,
	MODALIAS_MAP_FIELD_BITMAP = 1,
	MODALIAS_MAP_FIELD_LIST = 2,
	MODALIAS_MAP_FIELD_STRING = 3,
};

/**
 * modalias_map_type_field_kind:
 * @type: a #modalias_map_type.
 * @field: one of its column names (see modalias_map_type_field_name()).
 *
 * What the column holds, from the same column tables the parser reads each
 * row by.  Front ends ask this rather than guess from the column's name:
 * a list is %MODALIAS_MAP_FIELD_BITMAP or %MODALIAS_MAP_FIELD_LIST, and a
 * bitmap is shown highest word first, as in the file.
 *
 * Returns: a #modalias_map_field_kind, -ENOENT for a name the type has no
 * column of, -EINVAL for an unknown @type or a NULL @field.
 *
 * Since: 2
 */
int modalias_map_type_field_kind(int type, const char *field);

/**
 * modalias_map_new_from_buffer:
 * @ctx: a context.
 * @name: what to call the buffer in messages and as the origin of its
 *   patterns (a file name), or NULL; with @type -1 it may tell the type.
 * @buf: the text of a map file.
 * @len: its length in bytes.
 * @type: a #modalias_map_type, or -1 to take it from the header line
 *   ("# usb module …") or else from @name (modules.usbmap, usb.usermap).
 * @ret: (out): the map.
 *
 * Reads the rows of a map file.  Lines starting with '#' and blank lines
 * are skipped anywhere.  The writer's quirks are read as it wrote them:
 * inputmap names of 20 characters or more glued to the matchBits number,
 * inputmap rows of 14 numbers (before 2.6.14, without swBits) or 15, bitmap
 * words of 32 or 64 bits ("hi:lo"), isapnp rows with any number of
 * (vendor, function) pairs and trailing spaces, ofmap fields with embedded
 * spaces in their 20-column slots and "*" for empty.  A bad row (a wrong
 * number of columns, a number that is not 0x-prefixed hexadecimal or is
 * too wide for its field, or, since 4, a module that is not a module name
 * as modalias_loader_load_module() says: a '/' or a control character in
 * it) is logged as FILE:LINE:COLUMN with the field and the reason and
 * skipped; the rows after it are read.
 *
 * Returns: the number of rows skipped (0: all good), or a negative errno:
 * -EINVAL for a bad argument or a type that cannot be guessed, -ENOMEM.
 *
 * Since: 1
 */
int modalias_map_new_from_buffer(struct modalias_ctx *ctx, const char *name, const char *buf,
				 size_t len, int type, struct modalias_map **ret);

/**
 * modalias_map_new_from_file:
 * @ctx: a context.
 * @path: a map file.
 * @type: a #modalias_map_type, or -1 to guess it (see
 *   modalias_map_new_from_buffer()).
 * @ret: (out): the map.
 *
 * The file must be a regular file of 64 MiB at most.
 *
 * Returns: as modalias_map_new_from_buffer(), and the errors of reading
 * the file (-ENOENT, -EACCES, -EINVAL when not a regular file, -EFBIG past
 * 64 MiB, -EMEDIUMTYPE for a file of a kernel file system, …; logged with
 * its name).
 *
 * Since: 1
 */
int modalias_map_new_from_file(struct modalias_ctx *ctx, const char *path, int type,
			       struct modalias_map **ret);

/**
 * modalias_map_ref:
 * @map: a map, or NULL.
 *
 * Returns: @map, with one more reference.
 *
 * Since: 1
 */
struct modalias_map *modalias_map_ref(struct modalias_map *map);

/**
 * modalias_map_unref:
 * @map: a map, or NULL.
 *
 * Returns: @map while references remain, NULL once it is freed.
 *
 * Since: 1
 */
struct modalias_map *modalias_map_unref(struct modalias_map *map);

/**
 * modalias_map_get_type:
 * @map: a map.
 *
 * Returns: its #modalias_map_type, or -EINVAL.
 *
 * Since: 1
 */
int modalias_map_get_type(const struct modalias_map *map);

/**
 * modalias_map_get_name:
 * @map: a map.
 *
 * Returns: the file name (or buffer name) it was read from.
 *
 * Since: 1
 */
const char *modalias_map_get_name(const struct modalias_map *map);

/**
 * modalias_map_get_count:
 * @map: a map.
 *
 * Returns: the number of rows read, or -EINVAL.
 *
 * Since: 1
 */
int modalias_map_get_count(const struct modalias_map *map);

/**
 * modalias_map_get_module:
 * @map: a map.
 * @index: a row, 0 … count - 1.
 *
 * Returns: the row's module, as written (depmod kept its dashes), or NULL.
 *
 * Since: 1
 */
const char *modalias_map_get_module(const struct modalias_map *map, unsigned int index);

/**
 * modalias_map_get_line:
 * @map: a map.
 * @index: a row.
 *
 * Returns: the line of the file the row is on (from 1), 0 for a bad @index.
 *
 * Since: 1
 */
unsigned int modalias_map_get_line(const struct modalias_map *map, unsigned int index);

/**
 * modalias_map_get_field_count:
 * @map: a map.
 * @index: a row.
 * @field: a column name (see the section introduction).
 *
 * Returns: the number of items of the field: 1 for plain numbers and
 * strings, the number of words of an input bitmap, the number of PNP ids
 * of an isapnp row for vendor and function; -ENOENT for an unknown field,
 * -ERANGE for a bad @index.
 *
 * Since: 1
 */
int modalias_map_get_field_count(const struct modalias_map *map, unsigned int index,
				 const char *field);

/**
 * modalias_map_get_field:
 * @map: a map.
 * @index: a row.
 * @field: a numeric column name.
 * @item: 0 for plain numbers; the word of a bitmap (0 the lowest); the PNP
 *   id of isapnp vendor and function.
 * @value: (out): the number.
 *
 * Returns: 0, -ENOENT for an unknown field, -ERANGE for a bad @index or
 * @item, -EINVAL for a string field.
 *
 * Since: 1
 */
int modalias_map_get_field(const struct modalias_map *map, unsigned int index, const char *field,
			   unsigned int item, uint64_t *value);

/**
 * modalias_map_get_string:
 * @map: a map.
 * @index: a row.
 * @field: an ofmap column: "name", "type" or "compatible".
 * @value: (out): the string, "" where the file has "*" (any).
 *
 * Returns: 0, -ENOENT for an unknown field, -ERANGE for a bad @index,
 * -EINVAL for a numeric field.
 *
 * Since: 1
 */
int modalias_map_get_string(const struct modalias_map *map, unsigned int index, const char *field,
			    const char **value);

/**
 * modalias_map_get_word_bits:
 * @map: a map.
 *
 * The word size of inputmap bitmaps is not in the file: it is 64 when a
 * word is wider than 32 bits, else the context's when it has one
 * (modalias_ctx_set_word_bits(), when the map was read), 32 when a bitmap
 * has more words than a 64-bit kernel would write, else the word size of
 * this machine (logged at LOG_INFO where a bitmap has several words).
 *
 * Returns: 32 or 64 (64 for maps without bitmaps), or -EINVAL.
 *
 * Since: 1
 */
int modalias_map_get_word_bits(const struct modalias_map *map);

/**
 * modalias_map_set_word_bits:
 * @map: a map.
 * @bits: 32 or 64: the word size of the kernel the map was written for.
 *
 * Returns: 0, -EINVAL.
 *
 * Since: 1
 */
int modalias_map_set_word_bits(struct modalias_map *map, unsigned int bits);

/**
 * modalias_map_match:
 * @map: a map.
 * @dev: a device of the map's bus (usb, pci, ieee1394, ccw, pnp for
 *   isapnp, input, of, serio).
 * @start: the first row to consider.
 * @index: (out): the first matching row from @start.
 *
 * Matches as the kernel matches device tables: usb by the match_flags
 * (vendor, product, bcdDevice_lo <= bcdDevice <= bcdDevice_hi, the device
 * and interface class triplets); pci by the ids (0xffffffff: any) and
 * (class ^ device class) & class_mask; ieee1394 and ccw by their
 * match_flags; serio by type, extra, id and proto (0xff: any); input by the
 * matchBits, every bit of a flagged bitmap having to be set in the device
 * (key bits below 0x71, which no modalias carries, are not checked); isapnp
 * by the PNP id ("id" of a pnp device) of device rows, or the card id of
 * card rows; of by name, type and one of the compatibles (case-insensitive)
 * where the row sets them.  A device field that is unset counts as 0, a
 * wildcard device field matches anything.  The USB rule that interface
 * fields are not checked for vendor-specific devices without a vendor
 * match is not applied (the hotplug agents did not apply it either).
 * Iterate with @start = *@index + 1.
 *
 * Returns: 1 with *@index set, 0 when no row from @start matches, -EINVAL
 * for a NULL argument or a device of another bus (logged).
 *
 * Since: 1
 */
int modalias_map_match(const struct modalias_map *map, const struct modalias_dev *dev,
		       unsigned int start, unsigned int *index);

/**
 * modalias_map_get_aliases:
 * @map: a map.
 * @index: a row.
 * @flags: #modalias_map_flags.
 * @ret: (out) (transfer full): a NULL-terminated array of patterns; free
 *   each string and the array with free(3).
 *
 * The modules.alias patterns of the row's device-table entry, as the
 * kernel's file2alias writes them, in its order, duplicates dropped.  USB
 * bcdDevice ranges become one or more patterns with bracket expressions
 * (BCD or hex digits as the range's digits say); entries without vendor,
 * product and classes, and PCI class masks with bytes other than 0x00 and
 * 0xff, give none (as in file2alias), and so does a bcdDevice range whose
 * low end is above its high end.  A row that gives none is logged with its
 * file, line, module and why: at LOG_ERR where file2alias warns (the PCI
 * class masks) or the row can match no device, at LOG_INFO where
 * file2alias skips it without a word.  Today's dialect ends USB patterns in
 * "in*" and gives two OF patterns per entry (the second with "C*");
 * %MODALIAS_MAP_DIALECT_2_6 writes those of kernels before 3.x.  ISAPnP
 * ids are written with upper-case hex digits.
 *
 * Returns: the number of patterns (0 for none), -EINVAL, -ERANGE for a
 * bad @index, -ENOMEM.
 *
 * Since: 1
 */
int modalias_map_get_aliases(const struct modalias_map *map, unsigned int index,
			     unsigned int flags, char ***ret);

/**
 * modalias_table_load_map:
 * @table: a table.
 * @map: a map.
 * @flags: #modalias_map_flags.
 *
 * Adds the patterns of every row of @map (see modalias_map_get_aliases())
 * to the modules.alias source of @table, with the map's name and the row's
 * line as their origin, so that lookups answer from the map.
 *
 * Returns: the number of rows that gave no pattern (each logged, as
 * modalias_map_get_aliases() says), or a negative errno.
 *
 * Since: 1
 */
int modalias_table_load_map(struct modalias_table *table, const struct modalias_map *map,
			    unsigned int flags);

/**
 * modalias_table_write_map:
 * @table: a table.
 * @type: %MODALIAS_MAP_USB, %MODALIAS_MAP_PCI, %MODALIAS_MAP_IEEE1394,
 *   %MODALIAS_MAP_CCW, %MODALIAS_MAP_SERIO or %MODALIAS_MAP_OF.
 * @out: where the map goes.
 *
 * Writes the header and one row per pattern of the modules.alias source
 * that is of the bus of @type and of file2alias' plain form (each field a
 * value or '*'), in the format module-init-tools wrote.  A map row cannot
 * say everything a pattern can: patterns with bracket expressions (USB
 * bcdDevice ranges), other glob characters inside a field, USB interface
 * numbers (usbmap has no such column) and hand-written patterns are left
 * out, counted and logged at LOG_INFO.  A USB bcdDevice prefix ("d01*")
 * becomes the range it matches (0x0100-0x01ff).  Module names are written
 * as the table keeps them ('_', not '-'), and an OF pattern and its "C*"
 * twin give one row; '_' in OF strings (the kernel's replacement for white
 * space) stays '_'.
 *
 * Returns: the number of patterns of the bus that could not be written,
 * -EOPNOTSUPP for isapnp and input maps, -EINVAL, -EIO.
 *
 * Since: 1
 */
int modalias_table_write_map(struct modalias_table *table, int type, FILE *out);

#ifdef __cplusplus
}
#endif

#endif /* LIBMODALIAS_H */
