/*
 * libmodalias - what sysfs says of a device beyond its modalias: the
 * driver bound to it (and that driver's module), its driver_override, its
 * subsystem; and whether a module is loaded, or built in.  What a snapshot records of a
 * live system, and what explain and list show of it.
 *
 * Each attribute is read bounded, without blocking (read_text_file()); a
 * link is read, never followed.  This file reads sysfs; it may not walk it
 * (sysfs.c) nor print.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libmodalias-private.h"
#include "read-file.h"

/* ROOT DEVPATH/NAME, or NULL (out of memory) */
static char *dev_file(struct modalias_ctx *ctx, const char *devpath, const char *name)
{
	struct strbuf sb;
	char *s = NULL;

	strbuf_init(&sb);
	strbuf_printf(&sb, "%s%s/%s", modalias_ctx_get_sysfs_root(ctx), devpath, name);
	return strbuf_steal(&sb, &s) < 0 ? NULL : s;
}

char *sysfs_link_name(const char *path)
{
	char buf[PATH_MAX];
	ssize_t n = path ? readlink(path, buf, sizeof(buf) - 1) : -1;
	const char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	return strdup(slash ? slash + 1 : buf);
}

/* An attribute's text without its trailing blanks; NULL when it is absent,
 * empty, or (driver_override) the kernel's "(null)" */
static char *attr_value(struct modalias_ctx *ctx, const char *devpath, const char *name)
{
	char *path = dev_file(ctx, devpath, name), *v = NULL;
	size_t len;

	if (!path || read_text_file(path, &v, READ_FILE_ATTR_MAX) < 0)
		v = NULL;
	free(path);
	if (!v)
		return NULL;
	len = strlen(v);
	while (len > 0 && (v[len - 1] == '\n' || v[len - 1] == ' ' || v[len - 1] == '\t'))
		v[--len] = '\0';
	if (!*v || strcmp(v, "(null)") == 0) {
		free(v);
		return NULL;
	}
	return v;
}

char *uevent_value(char *uevent, const char *key)
{
	size_t klen = strlen(key);

	for (char *line = uevent; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (strncmp(line, key, klen) == 0 && line[klen] == '=')
			return line + klen + 1;
		line = nl ? nl + 1 : NULL;
	}
	return NULL;
}

/* The DRIVER= line of the device's uevent, as the kernel writes it for a
 * bound device (dev_uevent()), malloc'ed; NULL when none */
static char *uevent_driver(struct modalias_ctx *ctx, const char *devpath)
{
	char *path = dev_file(ctx, devpath, "uevent"), *text = NULL, *d = NULL;
	const char *v;

	if (path && read_text_file(path, &text, READ_FILE_ATTR_MAX) == 0 && (v = uevent_value(text, "DRIVER")) && *v)
		d = strdup(v);
	free(path);
	free(text);
	return d;
}

static char *dev_link_base(struct modalias_ctx *ctx, const char *devpath, const char *name)
{
	char *path = dev_file(ctx, devpath, name), *v = sysfs_link_name(path);

	free(path);
	return v;
}

char *sysfs_subsystem_of(struct modalias_ctx *ctx, const char *devpath)
{
	char *s = dev_link_base(ctx, devpath, "subsystem");

	/* a sysfs capture records the link's target in .subsystem, as .driver */
	return s ? s : attr_value(ctx, devpath, ".subsystem");
}

MODALIAS_EXPORT int modalias_sysfs_get_driver(struct modalias_ctx *ctx, const char *devpath, char **driver,
					      char **driver_module, char **driver_override)
{
	char *d = NULL, *m = NULL, *o = NULL;

	if (!ctx || !devpath_is_safe(devpath))
		return -EINVAL;
	if (driver) {
		d = dev_link_base(ctx, devpath, "driver");
		/* a sysfs capture records the link's target in .driver
		 * (tests/data/README.md); a copy of a tree without its links
		 * keeps uevent's DRIVER= */
		if (!d)
			d = attr_value(ctx, devpath, ".driver");
		if (!d)
			d = uevent_driver(ctx, devpath);
	}
	if (driver_module)
		m = dev_link_base(ctx, devpath, "driver/module");
	if (driver_override)
		o = attr_value(ctx, devpath, "driver_override");
	if (driver)
		*driver = d;
	if (driver_module)
		*driver_module = m;
	if (driver_override)
		*driver_override = o;
	return 0;
}

/* SYSFS_ROOT/module/MODULE/NAME (NULL: the directory), malloc'ed into
 * *PATH: 0, -EINVAL for a name that is no module's, -ENOMEM */
static int module_path(struct modalias_ctx *ctx, const char *module, const char *name, char **path)
{
	struct strbuf sb;
	const char *why;

	if (!ctx || !module || module_name_check(module, strlen(module), &why) < 0)
		return -EINVAL;
	strbuf_init(&sb);
	strbuf_printf(&sb, "%s/module/%s%s%s", modalias_ctx_get_sysfs_root(ctx), module, name ? "/" : "",
		      name ? name : "");
	return strbuf_steal(&sb, path);
}

MODALIAS_EXPORT int modalias_sysfs_is_module_loaded(struct modalias_ctx *ctx, const char *module)
{
	char *path = NULL, *state = NULL;
	int r = module_path(ctx, module, "initstate", &path);

	if (r < 0)
		return r;
	r = read_text_file(path, &state, READ_FILE_ATTR_MAX);
	free(path);
	if (r < 0)
		return 0;
	r = strncmp(state, "live", 4) == 0;
	free(state);
	return r;
}

/* Whether a driver named NAME is registered on a bus of the sysfs root
 * without a module link: a driver of a loadable module always has one */
static int builtin_driver(struct modalias_ctx *ctx, const char *name)
{
	char *path = NULL;
	struct strbuf sb;
	struct dirent *e;
	struct stat st;
	int fd, found = 0;
	DIR *buses;

	strbuf_init(&sb);
	strbuf_printf(&sb, "%s/bus", modalias_ctx_get_sysfs_root(ctx));
	if (strbuf_steal(&sb, &path) < 0)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	free(path);
	if (fd < 0 || !(buses = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while (!found && (e = readdir(buses))) {
		int drv;

		if (e->d_name[0] == '.')
			continue;
		strbuf_init(&sb);
		strbuf_printf(&sb, "%s/drivers/%s", e->d_name, name);
		if (strbuf_steal(&sb, &path) < 0) {
			found = -ENOMEM;
			break;
		}
		drv = openat(dirfd(buses), path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		free(path);
		if (drv < 0)
			continue;
		found = fstatat(drv, "module", &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT;
		close(drv);
	}
	closedir(buses);
	return found;
}

char *module_name_dashed(const char *module)
{
	char *dashed = strdup(module);

	for (char *c = dashed; c && *c; c++)
		if (*c == '_')
			*c = '-';
	return dashed;
}

MODALIAS_EXPORT int modalias_sysfs_is_module_builtin(struct modalias_ctx *ctx, const char *module)
{
	char *path = NULL, *dashed;
	struct stat st;
	int dir, r = module_path(ctx, module, NULL, &path);

	if (r < 0)
		return r;
	dir = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	free(path);
	if (dir >= 0) {
		/* a module that was loaded has an initstate; one built in has none */
		r = fstatat(dir, "initstate", &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT;
		close(dir);
		if (r)
			return r;
	}
	/* a built-in driver of the module's name (virtio_balloon; its '_'
	 * written '-' too, as virtio-pci), which has no /sys/module entry
	 * when it has neither parameters nor a version */
	r = builtin_driver(ctx, module);
	if (r != 0 || !strchr(module, '_'))
		return r;
	if (!(dashed = module_name_dashed(module)))
		return -ENOMEM;
	r = builtin_driver(ctx, dashed);
	free(dashed);
	return r;
}
