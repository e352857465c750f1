/*
 * libmodalias - libkmod, loaded when first needed (as systemd's udev does):
 * a one-shot lookup from an index cache never pays for loading libkmod and
 * what it links (libcrypto, liblzma, libzstd).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>

#include "kmod-dl.h"

struct kmod_dl kmod_dl;
static int kmod_dl_error;
static pthread_once_t kmod_dl_once = PTHREAD_ONCE_INIT;

static void kmod_dl_load(void)
{
	void *h = dlopen(KMOD_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		kmod_dl_error = -EOPNOTSUPP;
		return;
	}
#define SYM(name)                                                    \
	do {                                                         \
		*(void **)&kmod_dl.name = dlsym(h, #name);           \
		if (!kmod_dl.name) {                                 \
			kmod_dl_error = -EOPNOTSUPP;                 \
			return;                                      \
		}                                                    \
	} while (0)
	KMOD_DL_SYMBOLS(SYM);
#undef SYM
}

int kmod_dl_open(void)
{
	pthread_once(&kmod_dl_once, kmod_dl_load);
	return kmod_dl_error;
}
