/*
 * libmodalias/macro.h - the compiler attributes and small macros every
 * library source uses (export, printf checking, array size, stringify).
 * Macros only: no declaration of any function or type may go here.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#define MODALIAS_EXPORT __attribute__((visibility("default")))
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _cleanup_(f) __attribute__((cleanup(f)))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)
