/*
 * libmodalias - the names of devices: vendor, device and class names from
 * the machine's hardware databases, pci.ids and usb.ids (the pci.ids
 * project's format, which usb.ids shares), each read once, on its first
 * lookup, and kept.
 *
 * pciutils' libpci reads pci.ids too, but its error hook may not return
 * (it exits on a failed allocation) and it has no reader for usb.ids; one
 * reader here serves both files.
 *
 * This file reads and looks up; it may not print.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "libmodalias-private.h"
#include "read-file.h"

/* Debian's pci.ids is 1.4 MiB, usb.ids 0.7 MiB */
#define NAMES_FILE_MAX ((size_t)16 << 20)

/* Where the databases are when no directory is given: Debian's pci.ids
 * and usb.ids packages, then hwdata's (Fedora, Arch, SUSE) */
static const char *const default_dirs[] = { "/usr/share/misc", "/usr/share/hwdata" };

enum names_db_id { NAMES_PCI, NAMES_USB, NAMES_N_DB };
static const char *const db_files[NAMES_N_DB] = { "pci.ids", "usb.ids" };

/* A top-level line: a vendor ("8086  Intel Corporation") or a class
 * ("C 0c  Serial bus controller"), and its block, the lines below it that
 * start with a tab (each ended by a NUL once read) */
struct names_entry {
	unsigned int id;
	const char *name;
	const char *block, *end;
};

struct names_db {
	bool loaded;
	char *text;
	/* each sorted by id; a device's id is its vendor's << 16 | its own */
	struct names_entry *vendors, *devices, *classes;
	size_t n_vendors, n_devices, n_classes;
};

struct modalias_names {
	int refcount;
	struct modalias_ctx *ctx;
	char *dir; /* NULL: default_dirs */
	pthread_mutex_t lock; /* a database is read on its first lookup */
	struct names_db db[NAMES_N_DB];
};

/* The id of DIGITS hex digits at S followed by a blank, else -1 */
static long hex_id(const char *s, unsigned int digits)
{
	uint64_t v;

	for (unsigned int i = 0; i < digits; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))
			return -1;
	if (s[digits] != ' ' && s[digits] != '\t')
		return -1;
	if (parse_hex(s, digits, UINT32_MAX, &v) < 0)
		return -1;
	return (long)v;
}

/* The name after an id and its blanks ("" when there is none) */
static const char *name_after(const char *s, unsigned int digits)
{
	s += digits;
	return s + strspn(s, " \t");
}

static int entry_cmp(const void *a, const void *b)
{
	const struct names_entry *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int entry_add(struct names_entry **v, size_t *n, size_t *cap, unsigned int id, const char *name,
		     const char *block)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 1024;
		struct names_entry *p = realloc(*v, c * sizeof(*p));

		if (!p)
			return -ENOMEM;
		*v = p;
		*cap = c;
	}
	(*v)[(*n)++] = (struct names_entry){ id, name, block, block };
	return 0;
}

/* Takes TEXT (LEN bytes) apart in place: each line ends in a NUL, trailing
 * blanks cut; the vendors and classes indexed.  A line of another section
 * (usb.ids' "HID", "L", …) ends the block before it. */
static int db_index(struct names_db *db, char *text, size_t len)
{
	size_t cap_v = 0, cap_d = 0, cap_c = 0;
	struct names_entry *cur = NULL;
	bool cur_is_vendor = false;
	char *end = text + len;

	for (char *line = text, *next; line < end; line = next) {
		char *nl = memchr(line, '\n', (size_t)(end - line));
		char *e = nl ? nl : end;
		long id;
		int r = 0;

		next = nl ? nl + 1 : end;
		*e = '\0';
		while (e > line && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			*--e = '\0';
		if (line[0] == '\t') {
			if (cur)
				cur->end = next;
			/* a vendor's device: indexed too (Intel has thousands) */
			if (cur && cur_is_vendor && (id = hex_id(line + 1, 4)) >= 0 &&
			    entry_add(&db->devices, &db->n_devices, &cap_d, cur->id << 16 | (unsigned int)id,
				      name_after(line + 1, 4), next) < 0)
				return -ENOMEM;
			continue;
		}
		if (line[0] == '#' || line[0] == '\0')
			continue;
		/* a new top-level line: the block before it is done */
		if (cur)
			cur->end = line;
		cur = NULL;
		if ((id = hex_id(line, 4)) >= 0) {
			r = entry_add(&db->vendors, &db->n_vendors, &cap_v, (unsigned int)id, name_after(line, 4), next);
			cur_is_vendor = true;
		} else if (line[0] == 'C' && line[1] == ' ' && (id = hex_id(line + 2, 2)) >= 0) {
			r = entry_add(&db->classes, &db->n_classes, &cap_c, (unsigned int)id, name_after(line + 2, 2),
				      next);
			cur_is_vendor = false;
		} else {
			continue;
		}
		if (r < 0)
			return r;
		cur = cur_is_vendor ? &db->vendors[db->n_vendors - 1] : &db->classes[db->n_classes - 1];
	}
	qsort(db->vendors, db->n_vendors, sizeof(*db->vendors), entry_cmp);
	qsort(db->devices, db->n_devices, sizeof(*db->devices), entry_cmp);
	qsort(db->classes, db->n_classes, sizeof(*db->classes), entry_cmp);
	return 0;
}

static void db_clear(struct names_db *db)
{
	free(db->text);
	free(db->vendors);
	free(db->devices);
	free(db->classes);
	memset(db, 0, sizeof(*db));
}

/* Reads database ID into DB from the first directory that has it; an
 * absent file leaves it empty, an unreadable one too (logged at info
 * level), a failed allocation too (at err) */
static void db_load(struct modalias_names *names, struct names_db *db, enum names_db_id id)
{
	const char *const *dirs = names->dir ? (const char *const *)&names->dir : default_dirs;
	size_t n_dirs = names->dir ? 1 : ARRAY_SIZE(default_dirs);

	for (size_t i = 0; i < n_dirs; i++) {
		char *path = NULL, *text;
		size_t len;
		int r;

		if (asprintf(&path, "%s/%s", dirs[i], db_files[id]) < 0) {
			err(names->ctx, "cannot read %s: %s\n", db_files[id], strerror(ENOMEM));
			return;
		}
		r = read_file(path, NAMES_FILE_MAX, READ_FILE_NO_KERNEL_FS, &text, &len);
		if (r == 0) {
			db->text = text;
			r = db_index(db, text, len);
			if (r < 0) {
				err(names->ctx, "cannot index %s: %s\n", path, strerror(-r));
				db_clear(db);
			}
		} else if (r != -ENOENT) {
			info(names->ctx, "cannot read %s: %s\n", path, strerror(-r));
		}
		free(path);
		if (r != -ENOENT)
			return;
	}
}

/* Database ID, read on its first use */
static struct names_db *db_get(struct modalias_names *names, enum names_db_id id)
{
	struct names_db *db = &names->db[id];

	pthread_mutex_lock(&names->lock);
	if (!db->loaded) {
		db_load(names, db, id);
		db->loaded = true;
	}
	pthread_mutex_unlock(&names->lock);
	return db;
}

static const struct names_entry *entry_find(const struct names_entry *v, size_t n, unsigned int id)
{
	const struct names_entry key = { .id = id };

	if (n == 0) /* no database read: no array to search (bsearch() takes none) */
		return NULL;
	return bsearch(&key, v, n, sizeof(*v), entry_cmp);
}

/* The name of the line of BLOCK at DEPTH tabs whose id (DIGITS hex digits)
 * is ID, below the line at DEPTH - 1 tabs where it has one (*BLOCK moved
 * there, for a deeper search); NULL when none */
static const char *block_find(const char **block, const char *end, unsigned int depth, unsigned int digits,
			      unsigned int id)
{
	for (const char *l = *block; l < end; l += strlen(l) + 1) {
		size_t tabs = strspn(l, "\t");

		if (!*l || *l == '#') /* a comment, a blank line, the NULs of cut blanks */
			continue;
		if (tabs < depth)
			break;
		if (tabs == depth && hex_id(l + tabs, digits) == (long)id) {
			*block = l + strlen(l) + 1;
			return name_after(l + tabs, digits);
		}
	}
	return NULL;
}

MODALIAS_EXPORT int modalias_names_new(struct modalias_ctx *ctx, const char *dir, struct modalias_names **ret)
{
	struct modalias_names *names;

	if (!ctx || !ret)
		return -EINVAL;
	names = calloc(1, sizeof(*names));
	if (!names || (dir && !(names->dir = strdup(dir)))) {
		free(names);
		return -ENOMEM;
	}
	names->refcount = 1;
	names->ctx = modalias_ctx_ref(ctx);
	pthread_mutex_init(&names->lock, NULL);
	*ret = names;
	return 0;
}

MODALIAS_EXPORT struct modalias_names *modalias_names_ref(struct modalias_names *names)
{
	if (names)
		REF_INC(names->refcount);
	return names;
}

MODALIAS_EXPORT struct modalias_names *modalias_names_unref(struct modalias_names *names)
{
	if (!names)
		return NULL;
	if (REF_DEC(names->refcount) > 0)
		return names;
	for (size_t i = 0; i < NAMES_N_DB; i++)
		db_clear(&names->db[i]);
	pthread_mutex_destroy(&names->lock);
	modalias_ctx_unref(names->ctx);
	free(names->dir);
	free(names);
	return NULL;
}

/* The database of BUS ("pci", "usb"), or -ENOENT */
static int db_of_bus(const char *bus)
{
	if (strcmp(bus, "pci") == 0)
		return NAMES_PCI;
	if (strcmp(bus, "usb") == 0)
		return NAMES_USB;
	return -ENOENT;
}

MODALIAS_EXPORT int modalias_names_lookup_ids(struct modalias_names *names, const char *bus, unsigned int vendor,
					      unsigned int device, const char **vendor_name,
					      const char **device_name)
{
	const struct names_entry *v = NULL, *d = NULL;
	int id;

	if (!names || !bus)
		return -EINVAL;
	id = db_of_bus(bus);
	if (id >= 0) {
		const struct names_db *db = db_get(names, (enum names_db_id)id);

		v = entry_find(db->vendors, db->n_vendors, vendor);
		if (v && device <= 0xffff)
			d = entry_find(db->devices, db->n_devices, vendor << 16 | device);
	}
	if (vendor_name)
		*vendor_name = v ? v->name : NULL;
	if (device_name)
		*device_name = d ? d->name : NULL;
	return (v != NULL) + (d != NULL);
}

/* The class name of a device of database ID: pci the subclass's name
 * (lspci's "SATA controller") else the class's, usb the class's (lsusb's
 * "Human Interface Device") */
static const char *class_lookup(struct modalias_names *names, enum names_db_id id, unsigned int cls,
			       unsigned int subclass)
{
	const struct names_db *db = db_get(names, id);
	const struct names_entry *c = entry_find(db->classes, db->n_classes, cls);
	const char *block, *sub;

	if (!c)
		return NULL;
	block = c->block;
	sub = id == NAMES_PCI ? block_find(&block, c->end, 1, 2, subclass) : NULL;
	return sub ? sub : c->name;
}

MODALIAS_EXPORT int modalias_names_lookup(struct modalias_names *names, const struct modalias_dev *dev,
					  const char **vendor_name, const char **device_name,
					  const char **class_name)
{
	const char *bus = modalias_dev_get_bus(dev);
	const char *vn = NULL, *dn = NULL, *cn = NULL;
	uint64_t v, d, c, s;
	int id, n = 0;

	if (!names || !bus)
		return -EINVAL;
	id = db_of_bus(bus);
	if (id == NAMES_PCI) {
		if (modalias_dev_get_uint(dev, "vendor", 0, &v) == 0 && modalias_dev_get_uint(dev, "device", 0, &d) == 0 &&
		    v <= 0xffff)
			n = modalias_names_lookup_ids(names, bus, (unsigned int)v, (unsigned int)d, &vn, &dn);
		if (modalias_dev_get_uint(dev, "baseclass", 0, &c) == 0 &&
		    modalias_dev_get_uint(dev, "subclass", 0, &s) == 0)
			cn = class_lookup(names, NAMES_PCI, (unsigned int)c, (unsigned int)s);
	} else if (id == NAMES_USB) {
		if (modalias_dev_get_uint(dev, "idVendor", 0, &v) == 0 && modalias_dev_get_uint(dev, "idProduct", 0, &d) == 0)
			n = modalias_names_lookup_ids(names, bus, (unsigned int)v, (unsigned int)d, &vn, &dn);
		/* the interface's class; a class of 00 says "see the
		 * interfaces", so the device's is the one then */
		if ((modalias_dev_get_uint(dev, "bInterfaceClass", 0, &c) == 0 && c) ||
		    (modalias_dev_get_uint(dev, "bDeviceClass", 0, &c) == 0 && c))
			cn = class_lookup(names, NAMES_USB, (unsigned int)c, 0);
	}
	if (vendor_name)
		*vendor_name = vn;
	if (device_name)
		*device_name = dn;
	if (class_name)
		*class_name = cn;
	return n + (cn != NULL);
}
