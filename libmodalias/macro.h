/*
 * libmodalias/macro.h - the compiler attributes and small macros every
 * library source uses (export, printf checking, array size, stringify,
 * reference counts).
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

/* Reference counts are atomic: a context and a prepared table are shared
 * by the agent's worker threads, and each device or result made in one of
 * them takes and drops a reference to its context there. */
#define REF_INC(n) ((void)__atomic_add_fetch(&(n), 1, __ATOMIC_RELAXED))
#define REF_DEC(n) __atomic_sub_fetch(&(n), 1, __ATOMIC_ACQ_REL)
