/*
 * make bench: lookups per bus through libmodalias, libkmod (indexes loaded)
 * and a naive fnmatch loop over the text table, in one process, alternating;
 * index build times; one-shot `modalias resolve` against `modprobe -R`
 * (paired runs: with the index cache as it was written, and as read back
 * from disk after both tools' index files left the page cache, as at boot;
 * and the floor, a program that does nothing).  Writes a report and the
 * data for the chart.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <libkmod.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#include "libmodalias-private.h"
#include "table-private.h"
#include "../tests/corpus.h"

extern char **environ;

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- the three matchers ------------------------------------------------- */

struct naive {
	GPtrArray *patterns; /* normalised */
	GPtrArray *modules;
};

static void naive_load(struct naive *nv, const char *dir)
{
	g_autofree char *path = g_build_filename(dir, "modules.alias", NULL);
	g_autofree char *text = NULL;
	char **lines;

	nv->patterns = g_ptr_array_new_with_free_func(g_free);
	nv->modules = g_ptr_array_new_with_free_func(g_free);
	if (!g_file_get_contents(path, &text, NULL, NULL))
		g_error("cannot read %s", path);
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		g_auto(GStrv) f = g_strsplit(*l, " ", -1);
		char *norm;
		size_t len;

		if (g_strv_length(f) != 3 || strcmp(f[0], "alias") != 0)
			continue;
		norm = g_malloc(strlen(f[1]) + 1);
		if (alias_normalize(f[1], strlen(f[1]), norm, &len) < 0) {
			g_free(norm);
			continue;
		}
		g_ptr_array_add(nv->patterns, norm);
		g_ptr_array_add(nv->modules, g_strdup(f[2]));
	}
	g_strfreev(lines);
}

static unsigned int naive_lookup(const struct naive *nv, const char *alias)
{
	char norm[4096];
	size_t len = strlen(alias);
	unsigned int n = 0;

	if (len > 4095)
		len = 4095;
	if (alias_normalize(alias, len, norm, &len) < 0)
		return 0;
	for (guint i = 0; i < nv->patterns->len; i++)
		if (fnmatch(g_ptr_array_index(nv->patterns, i), norm, 0) == 0)
			n++;
	return n;
}

static unsigned int kmod_lookup(struct kmod_ctx *k, const char *alias)
{
	struct kmod_list *list = NULL, *l;
	unsigned int n = 0;

	if (kmod_module_new_from_lookup(k, alias, &list) < 0)
		return 0;
	kmod_list_foreach(l, list)
		n++;
	kmod_module_unref_list(list);
	return n;
}

/* ---- buses ------------------------------------------------------------------ */

static const char *const bus_names[] = {
	"pci", "usb", "of", "acpi", "dmi", "hid", "cpu", "x86cpu", "input", "platform", "i2c",
	"spi", "virtio", "scsi", "serio", "sdio", "pcmcia", "ieee1394", "ccw", "mdio", "wmi",
	"hdaudio", "mei", "sdw", "ssb", "bcma", "vmbus", "auxiliary", "ishtp", "zorro", "typec",
};

static const char *classify(const char *alias)
{
	const char *best = NULL;
	size_t best_len = 0;

	if (!strchr(alias, ':'))
		return "name";
	for (size_t i = 0; i < G_N_ELEMENTS(bus_names); i++) {
		size_t l = strlen(bus_names[i]);
		if (l > best_len && strncmp(alias, bus_names[i], l) == 0) {
			best = bus_names[i];
			best_len = l;
		}
	}
	return best ? best : "other";
}

struct group {
	const char *bus;
	GPtrArray *queries;
	double ours[16], kmod[16], naive[16];
};

/* ---- one-shot runs ------------------------------------------------------- */

static double spawn_wall(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	double t0, t1;
	pid_t pid;
	int status;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	t0 = now_us();
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) != 0)
		g_error("cannot run %s", argv[0]);
	waitpid(pid, &status, 0);
	t1 = now_us();
	posix_spawn_file_actions_destroy(&fa);
	if (!WIFEXITED(status) || WEXITSTATUS(status) > 1)
		g_error("%s failed (status %d)", argv[0], status);
	return t1 - t0;
}

/* Medians of N paired runs of A and B, in turn A B, B A, … */
struct pair {
	double a, b;
};

static struct pair paired(char *const a_argv[], char *const b_argv[], int n)
{
	double *a = g_new(double, n), *b = g_new(double, n);
	struct pair p;

	for (int i = 0; i < n; i++) {
		if (i % 2) {
			a[i] = spawn_wall(a_argv);
			b[i] = spawn_wall(b_argv);
		} else {
			b[i] = spawn_wall(b_argv);
			a[i] = spawn_wall(a_argv);
		}
	}
	p.a = median(a, n);
	p.b = median(b, n);
	g_free(a);
	g_free(b);
	return p;
}

/* The files of DIR ending in SUFFIX out of the page cache, as after a boot
 * (REMOVE: removed instead). */
static void evict_dir(const char *dir, const char *suffix, bool remove)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);
		int fd;

		if (!g_str_has_suffix(name, suffix))
			continue;
		if (remove) {
			if (unlink(path) < 0)
				g_error("cannot remove %s: %s", path, strerror(errno));
			continue;
		}
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			continue;
		if (posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0)
			g_warning("%s: cannot evict it from the page cache", path);
		close(fd);
	}
}

int main(int argc, char **argv)
{
	g_autofree char *moddir = NULL, *uevents = NULL, *cli = NULL, *outdir = NULL, *modprobe = NULL,
			 *floor_prog = NULL;
	int rounds = 5, oneshot = 300;
	const GOptionEntry entries[] = {
		{ "moddir", 0, 0, G_OPTION_ARG_FILENAME, &moddir, "Module directory", "DIR" },
		{ "uevents", 0, 0, G_OPTION_ARG_FILENAME, &uevents, "Recorded uevents", "FILE" },
		{ "cli", 0, 0, G_OPTION_ARG_FILENAME, &cli, "The modalias binary", "FILE" },
		{ "modprobe", 0, 0, G_OPTION_ARG_FILENAME, &modprobe, "modprobe (default /usr/bin/kmod's)", "FILE" },
		{ "floor", 0, 0, G_OPTION_ARG_FILENAME, &floor_prog, "A program that does nothing, timed as the floor", "FILE" },
		{ "out", 0, 0, G_OPTION_ARG_FILENAME, &outdir, "Where the data files go", "DIR" },
		{ "rounds", 0, 0, G_OPTION_ARG_INT, &rounds, "Rounds (alternating)", "N" },
		{ "oneshot", 0, 0, G_OPTION_ARG_INT, &oneshot, "Paired one-shot runs", "N" },
		{ NULL }
	};
	g_autoptr(GOptionContext) oc = g_option_context_new("- lookup benchmark");
	g_autoptr(GError) error = NULL;
	struct modalias_ctx *ctx;
	struct modalias_table *t;
	struct modalias_result *res;
	struct kmod_ctx *kctx;
	struct naive nv;
	const char *none[] = { NULL };
	g_autoptr(GPtrArray) real = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) corpus = NULL;
	g_autoptr(GPtrArray) overall = g_ptr_array_new();
	GPtrArray *groups = g_ptr_array_new();
	unsigned int n_real, n_patterns;
	GRand *rng = g_rand_new_with_seed(42);
	double ov_ours[16], ov_kmod[16], ov_naive[16];
	FILE *dat;

	g_option_context_add_main_entries(oc, entries, NULL);
	if (!g_option_context_parse(oc, &argc, &argv, &error) || !moddir || !uevents || !outdir)
		g_error("usage: %s --moddir DIR --uevents FILE --out DIR [--cli FILE]", argv[0]);
	if (rounds > 16)
		rounds = 16;
	if (!modprobe)
		modprobe = g_strdup(g_file_test("/usr/sbin/modprobe", G_FILE_TEST_EXISTS) ? "/usr/sbin/modprobe" : "/sbin/modprobe");

	/* the corpus: instantiated patterns, near misses, real MODALIAS strings */
	{
		g_autofree char *text = NULL;
		g_auto(GStrv) lines = NULL;
		if (!g_file_get_contents(uevents, &text, NULL, NULL))
			g_error("cannot read %s", uevents);
		lines = g_strsplit(text, "\n", -1);
		for (char **l = lines; *l; l++)
			if (g_str_has_prefix(*l, "MODALIAS="))
				g_ptr_array_add(real, g_strdup(*l + 9));
	}
	corpus = build_corpus(moddir, real, &n_real, &n_patterns);

	g_assert_cmpint(modalias_ctx_new(&ctx), ==, 0);
	g_assert_cmpint(modalias_table_new_from_directory(ctx, moddir, &t), >=, 0);
	g_assert_cmpint(modalias_table_load_config(t, none), ==, 0);
	g_assert_cmpint(modalias_result_new(&res), ==, 0);
	kctx = kmod_new(moddir, none);
	kmod_set_log_priority(kctx, 0);
	if (kmod_load_resources(kctx) < 0)
		g_error("kmod_load_resources failed");
	naive_load(&nv, moddir);

	/* groups by bus, at most 200 queries each; and an overall sample */
	for (guint i = 0; i < corpus->len; i++) {
		const char *q = g_ptr_array_index(corpus, i);
		const char *bus = classify(q);
		struct group *g = NULL;

		for (guint k = 0; k < groups->len; k++)
			if (strcmp(((struct group *)g_ptr_array_index(groups, k))->bus, bus) == 0)
				g = g_ptr_array_index(groups, k);
		if (!g) {
			g = g_new0(struct group, 1);
			g->bus = bus;
			g->queries = g_ptr_array_new();
			g_ptr_array_add(groups, g);
		}
		if (g->queries->len < 200)
			g_ptr_array_add(g->queries, (gpointer)q);
		else if (g_rand_int_range(rng, 0, (gint32)i) < 200)
			g->queries->pdata[g_rand_int_range(rng, 0, 200)] = (gpointer)q;
		if (g_rand_int_range(rng, 0, (gint32)corpus->len) < 3000)
			g_ptr_array_add(overall, (gpointer)q);
	}
	/* the same answers, or the figures mean nothing */
	for (guint i = 0; i < overall->len; i++) {
		const char *q = g_ptr_array_index(overall, i);
		int a = modalias_table_lookup(t, q, res);
		struct kmod_list *list = NULL;
		if (a < 0 || (kmod_module_new_from_lookup(kctx, q, &list) >= 0 && (list != NULL) != (a > 0)))
			g_error("libmodalias and libkmod disagree on %s", q);
		kmod_module_unref_list(list);
	}

	for (int r = 0; r < rounds; r++) {
		for (guint k = 0; k < groups->len; k++) {
			struct group *g = g_ptr_array_index(groups, k);
			guint n = g->queries->len;
			double t0;
			/* alternate which goes first */
			for (int which = 0; which < 3; which++) {
				int w = (which + r) % 3;
				t0 = now_us();
				if (w == 0) {
					for (int rep = 0; rep < 20; rep++)
						for (guint i = 0; i < n; i++)
							modalias_table_lookup(t, g_ptr_array_index(g->queries, i), res);
					g->ours[r] = (now_us() - t0) / (20.0 * n);
				} else if (w == 1) {
					for (guint i = 0; i < n; i++)
						kmod_lookup(kctx, g_ptr_array_index(g->queries, i));
					g->kmod[r] = (now_us() - t0) / n;
				} else {
					guint m = n < 40 ? n : 40;
					for (guint i = 0; i < m; i++)
						naive_lookup(&nv, g_ptr_array_index(g->queries, i));
					g->naive[r] = (now_us() - t0) / m;
				}
			}
		}
		{
			guint n = overall->len;
			double t0 = now_us();
			for (int rep = 0; rep < 10; rep++)
				for (guint i = 0; i < n; i++)
					modalias_table_lookup(t, g_ptr_array_index(overall, i), res);
			ov_ours[r] = (now_us() - t0) / (10.0 * n);
			t0 = now_us();
			for (guint i = 0; i < n; i++)
				kmod_lookup(kctx, g_ptr_array_index(overall, i));
			ov_kmod[r] = (now_us() - t0) / n;
			t0 = now_us();
			for (guint i = 0; i < 300; i++)
				naive_lookup(&nv, g_ptr_array_index(overall, i % n));
			ov_naive[r] = (now_us() - t0) / 300;
		}
	}

	printf("libmodalias lookup benchmark: %s\n", moddir);
	printf("corpus: %u aliases (%u real recorded ones); %d rounds, alternating\n\n", corpus->len, n_real, rounds);
	printf("%-10s %6s %12s %12s %12s %9s %9s\n", "bus", "n", "ours us", "libkmod us", "fnmatch us",
	       "kmod/ours", "naive/ours");
	{
		g_autofree char *path = g_build_filename(outdir, "lookup.dat", NULL);
		dat = fopen(path, "w");
		if (!dat)
			g_error("cannot write %s", path);
		fprintf(dat, "# bus ours_us libkmod_us fnmatch_us\n");
	}
	for (guint k = 0; k < groups->len; k++) {
		struct group *g = g_ptr_array_index(groups, k);
		double o = median(g->ours, rounds), km = median(g->kmod, rounds), na = median(g->naive, rounds);

		if (g->queries->len < 5)
			continue;
		printf("%-10s %6u %12.3f %12.3f %12.1f %8.1fx %8.0fx\n", g->bus, g->queries->len, o, km, na,
		       km / o, na / o);
		fprintf(dat, "%s %.4f %.4f %.2f\n", g->bus, o, km, na);
	}
	fclose(dat);
	{
		double o = median(ov_ours, rounds), km = median(ov_kmod, rounds), na = median(ov_naive, rounds);
		printf("%-10s %6u %12.3f %12.3f %12.1f %8.1fx %8.0fx\n\n", "overall", overall->len, o, km, na,
		       km / o, na / o);
	}

	/* index build */
	{
		double full[15], alias_only[15], cached[15];
		g_autofree char *alias_path = g_build_filename(moddir, "modules.alias", NULL);
		g_autofree char *cache = g_build_filename(outdir, "bench.idx", NULL);
		size_t bytes = 0;

		g_assert_cmpint(modalias_table_save(t, cache), ==, 0);
		for (int i = 0; i < 15; i++) {
			struct modalias_table *b;
			double t0 = now_us();
			modalias_table_new_from_directory(ctx, moddir, &b);
			full[i] = now_us() - t0;
			modalias_table_unref(b);
			t0 = now_us();
			modalias_table_new(ctx, &b);
			modalias_table_load_file(b, alias_path);
			modalias_table_prepare(b);
			alias_only[i] = now_us() - t0;
			if (i == 0)
				modalias_table_get_memory(b, &bytes);
			modalias_table_unref(b);
			t0 = now_us();
			modalias_table_new_from_cache(ctx, cache, moddir, &b);
			cached[i] = now_us() - t0;
			modalias_table_unref(b);
		}
		printf("index build (median of 15):\n");
		printf("  modules.alias alone (%d patterns): %.2f ms, %zu bytes (%.2fx the text)\n",
		       modalias_table_get_pattern_count(t), median(alias_only, 15) / 1000, bytes,
		       (double)bytes / 1316451.0);
		printf("  whole module directory:          %.2f ms\n", median(full, 15) / 1000);
		printf("  from the index cache (mmap):     %.3f ms\n\n", median(cached, 15) / 1000);
		unlink(cache);
	}

	/* one-shot: modalias resolve (the cache as written, as read from
	 * disk, and no cache) against modprobe -R, and the floor */
	if (cli && oneshot > 0) {
		const char *alias = "pci:v00008086d000010D3sv00008086sd0000A01Fbc02sc00i00";
		g_autofree char *root = g_build_filename(outdir, "root", NULL);
		g_autofree char *link_dir = g_build_filename(root, "lib", "modules", NULL);
		g_autofree char *link = g_build_filename(link_dir, "bench", NULL);
		g_autofree char *cache_dir = g_build_filename(outdir, "cache", NULL);
		g_autofree char *absmod = g_canonicalize_filename(moddir, NULL);
		char resolve[] = "resolve", moddir_opt[] = "--moddir", c_opt[] = "-C", devnull[] = "/dev/null";
		char d_opt[] = "-d", s_opt[] = "-S", ver[] = "bench", r_opt[] = "-R";
		char *ours[] = { cli, resolve, moddir_opt, moddir, c_opt, devnull, (char *)alias, NULL };
		char *theirs[] = { modprobe, d_opt, root, s_opt, ver, c_opt, devnull, r_opt, (char *)alias, NULL };
		char *nothing[] = { floor_prog, NULL };
		struct pair written, from_disk, fl = { 0 };
		double *c = g_new(double, oneshot / 10 + 1);

		g_mkdir_with_parents(link_dir, 0755);
		unlink(link);
		if (symlink(absmod, link) < 0)
			g_error("symlink %s: %s", link, strerror(errno));
		g_setenv("MODALIAS_CACHE_DIR", cache_dir, TRUE);
		evict_dir(cache_dir, ".idx", true);
		spawn_wall(ours); /* writes the cache */
		written = paired(ours, theirs, oneshot);
		/* as at boot: both tools' index files out of the page cache, then
		 * read back by one run each (not counted) */
		evict_dir(cache_dir, ".idx", false);
		evict_dir(moddir, ".bin", false);
		spawn_wall(ours);
		spawn_wall(theirs);
		from_disk = paired(ours, theirs, oneshot);
		if (floor_prog)
			fl = paired(nothing, theirs, oneshot);
		g_setenv("MODALIAS_CACHE_DIR", "", TRUE);
		for (int i = 0; i < oneshot / 10; i++)
			c[i] = spawn_wall(ours);
		printf("one-shot, %d paired runs each (median wall):\n", oneshot);
		printf("                                   ours    modprobe -R   ratio\n");
		printf("  index cache as written:       %7.2f ms  %7.2f ms   %.2fx\n", written.a / 1000,
		       written.b / 1000, written.a / written.b);
		printf("  index cache read from disk:   %7.2f ms  %7.2f ms   %.2fx\n", from_disk.a / 1000,
		       from_disk.b / 1000, from_disk.a / from_disk.b);
		printf("  no cache:                     %7.2f ms\n", median(c, oneshot / 10) / 1000);
		if (floor_prog)
			printf("  floor (a C program that does nothing): %.2f ms  %.2fx\n", fl.a / 1000,
			       fl.a / fl.b);
		g_free(c);
		unlink(link);
	}
	modalias_result_unref(res);
	modalias_table_unref(t);
	kmod_unref(kctx);
	modalias_ctx_unref(ctx);
	g_rand_free(rng);
	return 0;
}
