/*
 * libmodalias - buses and devices inside the library: what a bus is
 * (struct bus_desc: its name, its prefix, its fields from bus-fields.h and,
 * where the kernel's string is not the generic tag/value sequence, its own
 * format and parse), what a device holds (its values, field by field), and
 * the calls between the three files that hold them:
 *
 *   fields.c  a device's values, stored as each field's description says,
 *             and the generic tag/value form written and read; knows no bus
 *   buses.c   the table of buses, each bus's own format and parse
 *   dev.c     the public device calls of libmodalias.h, over both
 *
 * Calls go dev.c -> buses.c -> fields.c, never back up.  env.c and sysfs.c
 * build devices with these calls, naming each field by its index in
 * bus-fields.h; the map matcher reads them.  Not installed; declarations
 * and small inline accessors only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bus-fields.h"
#include "libmodalias.h"

struct strbuf;

struct bus_desc {
	const char *name; /* "" for bus_unknown: its devices keep the modalias's own */
	const char *prefix; /* "usb:" */
	const struct field_desc *fields;
	unsigned int n_fields;
	/* NULL: the generic tag/value sequence of fields */
	int (*format)(const struct modalias_dev *dev, struct strbuf *sb);
	int (*parse)(struct modalias_dev *dev, const char *s, size_t len);
	/* FF_SETTER fields */
	int (*set_special)(struct modalias_dev *dev, unsigned int field, const char *value);
};

struct item {
	char *text;   /* as written in the modalias */
	uint64_t num; /* numeric fields */
	bool wild;    /* "*" */
};

struct fval {
	struct item *items;
	unsigned int n;
	unsigned int cap;
};

struct modalias_dev {
	int refcount;
	struct modalias_ctx *ctx;
	const struct bus_desc *bus;
	char *bus_name; /* for unknown buses */
	struct fval *values; /* one per field */
};

static inline const char *dev_bus_name(const struct modalias_dev *dev)
{
	return dev->bus_name ? dev->bus_name : dev->bus->name;
}

static inline bool field_is_list(const struct field_desc *fd)
{
	return fd->kind == FK_HEXLIST || fd->kind == FK_STRLIST;
}

static inline bool field_is_numeric(const struct field_desc *fd)
{
	return fd->kind == FK_HEX || fd->kind == FK_DEC || fd->kind == FK_HEXLIST;
}

/* The index of the named field of bus, or -ENOENT (inline: every call by
 * field name goes through it). */
static inline int field_index(const struct bus_desc *bus, const char *name)
{
	for (unsigned int i = 0; i < bus->n_fields; i++)
		if (strcmp(bus->fields[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}

/* The largest number a field takes: its max, else what its width holds. */
static inline uint64_t field_max(const struct field_desc *fd)
{
	if (fd->max)
		return fd->max;
	if (fd->kind == FK_HEX && fd->width > 0 && fd->width < 16)
		return (UINT64_C(1) << (4 * fd->width)) - 1;
	return UINT32_MAX;
}

/* ---- the table of buses (buses.c) ------------------------------------- */

const struct bus_desc *bus_find(const char *name, size_t len);
/* Any other modalias: RAW_FIELDS, its name kept by each device. */
extern const struct bus_desc bus_unknown;

/* Byte b of a PCI class code: 0 the base class, 1 the subclass, 2 the
 * programming interface. */
static inline uint64_t pci_class_byte(uint64_t class_code, unsigned int b)
{
	return (class_code >> (8 * (2 - b))) & 0xff;
}
/* Sets a pci (or vfio_pci) device's PCI_BASECLASS, PCI_SUBCLASS and
 * PCI_INTERFACE from a class code of at most PCI_CLASS_MAX. */
int dev_put_pci_class(struct modalias_dev *dev, uint64_t class_code);

/* ---- a device's values (fields.c) ------------------------------------- */

/* A device of bus, no field set; bus_unknown's takes its name from the
 * first bus_name_len bytes of bus_name (the others' is NULL). */
int dev_new(struct modalias_ctx *ctx, const struct bus_desc *bus,
	    const char *bus_name, size_t bus_name_len, struct modalias_dev **ret);
/* A device made to be built starts as today's kernels write it: each
 * field FF_OLD_OPTIONAL (left out only by old kernels) at zero. */
int dev_put_today(struct modalias_dev *dev);
/* Frees the device and its values, whatever its reference count. */
void dev_free(struct modalias_dev *dev);
/* Where the first C0 control or DEL of the LEN bytes at S is, LEN when
 * there is none: no modalias holds one (a newline would forge a line of
 * whoever prints it) */
size_t text_ctrl_at(const char *s, size_t len);
/* Sets/appends one parsed value; text is copied verbatim (no case change);
 * -EINVAL when it has a control (text_ctrl_at()). */
int dev_put_text(struct modalias_dev *dev, unsigned int field, const char *text,
		 size_t len, bool append);
/* Sets/appends a number (-ERANGE outside the field's min … max); a sorted
 * list keeps it in order, once. */
int dev_put_num(struct modalias_dev *dev, unsigned int field, uint64_t num,
		bool append);
int dev_put_wild(struct modalias_dev *dev, unsigned int field);
void dev_clear(struct modalias_dev *dev, unsigned int field);
static inline const struct fval *dev_val(const struct modalias_dev *dev, unsigned int field)
{
	return &dev->values[field];
}
static inline bool dev_isset(const struct modalias_dev *dev, unsigned int field)
{
	return dev->values[field].n > 0;
}
/* Field value as text, or a default when unset. */
const char *dev_text(const struct modalias_dev *dev, unsigned int field, const char *dflt);
/* Adds the set bits of a kernel bitmap ("%lx" words, highest first, space
 * separated) to a list field; bits below the field's min are skipped. */
int dev_add_bitmap(struct modalias_dev *dev, unsigned int field, const char *words,
		   unsigned int word_bits);
/* Fields [first, last) in the generic form: tag, value, tag, value… */
int dev_format_generic(const struct modalias_dev *dev, struct strbuf *sb,
		       unsigned int first, unsigned int last);
/* Parses fields [first, last) from s; on success *consumed is how far. */
int dev_parse_generic(struct modalias_dev *dev, const char *s, size_t len,
		      unsigned int first, unsigned int last, size_t *consumed);
/* Logs a parse error at offset off of the string being parsed, in a field
 * (its index) or, with NO_FIELD, in the modalias; -EINVAL. */
#define NO_FIELD (-1)
int parse_error(const struct modalias_dev *dev, int field, size_t off, const char *why);
