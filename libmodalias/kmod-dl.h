/*
 * libmodalias - the libkmod functions the library calls, through dlopen()
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <libkmod.h>

#define KMOD_SONAME "libkmod.so.2"

#define KMOD_DL_SYMBOLS(X)                  \
	X(kmod_new);                        \
	X(kmod_unref);                      \
	X(kmod_set_log_fn);                 \
	X(kmod_config_get_aliases);         \
	X(kmod_config_get_install_commands); \
	X(kmod_config_get_remove_commands); \
	X(kmod_config_get_blacklists);      \
	X(kmod_config_iter_next);           \
	X(kmod_config_iter_get_key);        \
	X(kmod_config_iter_get_value);      \
	X(kmod_config_iter_free_iter);      \
	X(kmod_get_dirname);                \
	X(kmod_load_resources);             \
	X(kmod_validate_resources);         \
	X(kmod_module_new_from_name);       \
	X(kmod_module_get_name);            \
	X(kmod_module_get_path);            \
	X(kmod_module_get_install_commands); \
	X(kmod_module_get_initstate);       \
	X(kmod_module_probe_insert_module); \
	X(kmod_module_unref);               \
	X(kmod_module_get_info);            \
	X(kmod_module_info_get_key);        \
	X(kmod_module_info_get_value);      \
	X(kmod_module_info_free_list);      \
	X(kmod_module_get_dependencies);    \
	X(kmod_module_get_module);          \
	X(kmod_module_unref_list);          \
	X(kmod_list_next)

struct kmod_dl {
#define DECL(name) __typeof__(name) *name /* NOLINT(bugprone-macro-parentheses): a declarator */
	KMOD_DL_SYMBOLS(DECL);
#undef DECL
};

extern struct kmod_dl kmod_dl;

/* Loads libkmod once; 0, or -EOPNOTSUPP when it cannot be had. */
int kmod_dl_open(void);
