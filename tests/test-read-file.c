/*
 * shared/read-file.c: a file read whole, bounded, without blocking.  Each
 * row names a file (made in a private directory, or a kernel file that
 * never ends), a bound and flags, and the outcome: the bytes read or the
 * errno, and the message read_file_error() gives for it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "read-file.h"
#include "test-common.h"

struct read_row {
	const char *name;
	const char *make;    /* "f" a file of CONTENT, "d" a directory, "p" a FIFO, "-" nothing */
	const char *content; /* the file's bytes (LEN of them) */
	size_t len;
	const char *path;    /* instead of the made file: an absolute path */
	size_t max;
	unsigned int flags;
	int want;            /* 0: CONTENT read back */
	const char *why;     /* read_file_error() of WANT */
};

static const struct read_row rows[] = {
	{ "regular", "f", "alias a b\n", 10, NULL, 64, 0, 0, NULL },
	{ "empty", "f", "", 0, NULL, 64, 0, 0, NULL },
	{ "nul-bytes-kept", "f", "a\0b\0", 4, NULL, 64, 0, 0, NULL },
	{ "exactly-the-bound", "f", "0123456789", 10, NULL, 10, 0, 0, NULL },
	{ "one-past-the-bound", "f", "0123456789x", 11, NULL, 10, 0, -EFBIG, "larger than 10 bytes" },
	{ "missing", "-", NULL, 0, NULL, 64, 0, -ENOENT, "No such file or directory" },
	{ "directory", "d", NULL, 0, NULL, 64, 0, -EISDIR, "Is a directory" },
	{ "fifo-no-writer", "p", NULL, 0, NULL, 64, 0, -EINVAL, "not a regular file" },
	{ "fifo-even-with-null", "p", NULL, 0, NULL, 64, READ_FILE_NULL, -EINVAL, "not a regular file" },
	{ "dev-null-refused", "-", NULL, 0, "/dev/null", 64, 0, -EINVAL, "not a regular file" },
	{ "dev-null-as-null", "-", "", 0, "/dev/null", 64, READ_FILE_NULL, 0, NULL },
	/* another device is never read (nor opened), null allowed or not */
	{ "dev-zero-not-null", "-", NULL, 0, "/dev/zero", (size_t)1 << 20, READ_FILE_NULL, -EINVAL,
	  "not a regular file" },
	{ "dev-zero-refused", "-", NULL, 0, "/dev/zero", 64, 0, -EINVAL, "not a regular file" },
	/* size 0 in stat, and 8 bytes of every page of the address space */
	{ "pagemap-bounded", "-", NULL, 0, "/proc/self/pagemap", READ_FILE_TABLE_MAX, 0, -EFBIG,
	  "larger than 64 MiB" },
	{ "pagemap-small-bound", "-", NULL, 0, "/proc/self/pagemap", READ_FILE_ATTR_MAX, 0, -EFBIG,
	  "larger than 64 KiB" },
	/* a kernel file system's "regular" file (/proc/kmsg takes the
	 * kernel's messages when read), never opened for reading */
	{ "procfs-refused", "-", NULL, 0, "/proc/self/pagemap", READ_FILE_TABLE_MAX, READ_FILE_NO_KERNEL_FS,
	  -EMEDIUMTYPE, "a kernel file (procfs, sysfs…): reading may change it" },
	{ "sysfs-refused", "-", NULL, 0, "/sys/kernel/uevent_seqnum", READ_FILE_ATTR_MAX, READ_FILE_NO_KERNEL_FS,
	  -EMEDIUMTYPE, "a kernel file (procfs, sysfs…): reading may change it" },
	{ "disk-file-with-no-kernel-fs", "f", "alias a b\n", 10, NULL, 64, READ_FILE_NO_KERNEL_FS, 0, NULL },
};

static void test_row(gconstpointer data)
{
	const struct read_row *row = data;
	g_autofree char *dir = g_dir_make_tmp("read-file-XXXXXX", NULL);
	g_autofree char *made = g_build_filename(dir, "file", NULL);
	const char *path = row->path ? row->path : made;
	char *buf = (char *)"untouched", why[64];
	size_t len = 12345;
	int r;

	g_assert_nonnull(dir);
	if (row->path && access(row->path, R_OK) < 0) {
		g_test_skip("no such file here");
		g_rmdir(dir);
		return;
	}
	switch (row->make[0]) {
	case 'f':
		g_assert_true(g_file_set_contents(made, row->content, (gssize)row->len, NULL));
		break;
	case 'd':
		g_assert_cmpint(g_mkdir(made, 0755), ==, 0);
		break;
	case 'p':
		g_assert_cmpint(mkfifo(made, 0644), ==, 0);
		break;
	}
	r = read_file(path, row->max, row->flags, &buf, &len);
	g_assert_cmpint(r, ==, row->want);
	if (r == 0) {
		g_assert_cmpuint(len, ==, row->len);
		g_assert_cmpmem(buf, len, row->content, row->len);
		g_assert_cmpint(buf[len], ==, '\0');
		free(buf);
	} else {
		/* nothing handed over on failure */
		g_assert_cmpstr(buf, ==, "untouched");
		g_assert_cmpuint(len, ==, 12345);
		g_assert_cmpstr(read_file_error(r, row->max, why, sizeof(why)), ==, row->why);
	}
	if (row->make[0] == 'd')
		g_rmdir(made);
	else
		g_unlink(made);
	g_rmdir(dir);
}

/* A FIFO with a writer that writes nothing: refused before any read, at
 * once (it used to block the reader for ever). */
static void test_fifo_with_writer(void)
{
	g_autofree char *dir = g_dir_make_tmp("read-file-XXXXXX", NULL);
	g_autofree char *fifo = g_build_filename(dir, "fifo", NULL);
	char *buf;
	int rd, wr;

	g_assert_cmpint(mkfifo(fifo, 0644), ==, 0);
	rd = open(fifo, O_RDONLY | O_NONBLOCK);
	wr = open(fifo, O_WRONLY | O_NONBLOCK);
	g_assert_cmpint(rd, >=, 0);
	g_assert_cmpint(wr, >=, 0);
	g_assert_cmpint(read_file(fifo, 64, READ_FILE_NULL, &buf, NULL), ==, -EINVAL);
	close(wr);
	close(rd);
	g_unlink(fifo);
	g_rmdir(dir);
}

/* A FIFO whose writer waits in open() for a reader: refused without being
 * opened, so the writer still waits (the old reader opened it, O_NONBLOCK,
 * and let the writer through before it looked at what it had opened). */
static void test_fifo_not_opened(void)
{
	g_autofree char *dir = g_dir_make_tmp("read-file-XXXXXX", NULL);
	g_autofree char *fifo = g_build_filename(dir, "fifo", NULL);
	int status, rd;
	char *buf;
	pid_t pid;

	g_assert_cmpint(mkfifo(fifo, 0644), ==, 0);
	pid = fork();
	g_assert_cmpint(pid, >=, 0);
	if (pid == 0)
		_exit(open(fifo, O_WRONLY) >= 0 ? 0 : 1); /* blocks until a reader opens */
	g_usleep(100000);
	g_assert_cmpint(read_file(fifo, 64, 0, &buf, NULL), ==, -EINVAL);
	g_usleep(100000);
	g_assert_cmpint(waitpid(pid, &status, WNOHANG), ==, 0);
	/* now a reader: the writer goes */
	rd = open(fifo, O_RDONLY | O_NONBLOCK);
	g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
	close(rd);
	g_unlink(fifo);
	g_rmdir(dir);
}

/* A file that reports a size: read in one go, and refused past the bound
 * before any read. */
static void test_big_file(void)
{
	g_autofree char *dir = g_dir_make_tmp("read-file-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "big", NULL);
	gsize n = (gsize)3 << 20;
	g_autofree char *text = g_malloc(n);
	char *buf;
	size_t len;

	for (gsize i = 0; i < n; i++)
		text[i] = (char)('a' + i % 26);
	g_assert_true(g_file_set_contents(path, text, (gssize)n, NULL));
	g_assert_cmpint(read_file(path, n, 0, &buf, &len), ==, 0);
	g_assert_cmpmem(buf, len, text, n);
	free(buf);
	g_assert_cmpint(read_file(path, n - 1, 0, &buf, &len), ==, -EFBIG);
	g_unlink(path);
	g_rmdir(dir);
}

/* read_file_check(): read_file()'s check alone, for a file another reader
 * (libkmod) opens by path: its error, and what the file is */
static void test_check(void)
{
	static const struct {
		const char *make, *path;
		unsigned int flags;
		int want;
		const char *kind;
	} checks[] = {
		{ "f", NULL, READ_FILE_NO_KERNEL_FS, 0, NULL },
		{ "-", NULL, READ_FILE_NO_KERNEL_FS, -ENOENT, NULL },
		{ "p", NULL, READ_FILE_NO_KERNEL_FS, -EINVAL, "a FIFO" },
		{ "d", NULL, READ_FILE_NO_KERNEL_FS, -EISDIR, "a directory" },
		{ "z", NULL, READ_FILE_NO_KERNEL_FS, -EINVAL, "a character device" }, /* a link to /dev/zero */
		{ "-", "/dev/null", 0, -EINVAL, "a character device" },
		{ "-", "/dev/null", READ_FILE_NULL, 0, NULL },
		{ "-", "/proc/self/status", READ_FILE_NO_KERNEL_FS, -EMEDIUMTYPE, NULL },
		{ "-", "/proc/self/status", 0, 0, NULL },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(checks); i++) {
		g_autofree char *dir = g_dir_make_tmp("read-file-XXXXXX", NULL);
		g_autofree char *made = g_build_filename(dir, "file", NULL);
		const char *kind = "untouched";

		switch (checks[i].make[0]) {
		case 'f':
			g_assert_true(g_file_set_contents(made, "x", 1, NULL));
			break;
		case 'p':
			g_assert_cmpint(mkfifo(made, 0600), ==, 0);
			break;
		case 'd':
			g_assert_cmpint(g_mkdir(made, 0700), ==, 0);
			break;
		case 'z':
			g_assert_cmpint(symlink("/dev/zero", made), ==, 0);
			break;
		default:
			break;
		}
		g_assert_cmpint(read_file_check(checks[i].path ? checks[i].path : made, checks[i].flags, &kind), ==, checks[i].want);
		g_assert_cmpstr(kind, ==, checks[i].kind);
		test_rm_rf(dir);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
		g_autofree char *name = g_strdup_printf("/read-file/%s", rows[i].name);
		g_test_add_data_func(name, &rows[i], test_row);
	}
	g_test_add_func("/read-file/fifo-with-writer", test_fifo_with_writer);
	g_test_add_func("/read-file/fifo-not-opened", test_fifo_not_opened);
	g_test_add_func("/read-file/big-file", test_big_file);
	g_test_add_func("/read-file/check", test_check);
	return g_test_run();
}
