/*
 * handle.c: what a Table, a Map, a Loader and a Snapshot share: the one
 * C reference each holds (HandleObject, the head of their objects), and
 * close(), "with" and the closed attribute over it.
 *
 * It may not know which C object a handle holds beyond its kind (name,
 * unref function), nor take locks: a call in flight holds a C reference
 * of its own (modalias_*_ref()), so that close() from another thread only
 * drops the handle's.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "modalias-py.h"

int handle_check(HandleObject *self)
{
	if (!self->ptr) {
		raise_closed(self->kind->name);
		return -1;
	}
	return 0;
}

void handle_release(HandleObject *self)
{
	void *ptr = self->ptr;

	self->ptr = NULL;
	if (ptr)
		self->kind->unref(ptr);
}

PyObject *handle_close(PyObject *self, PyObject *unused)
{
	handle_release((HandleObject *)self);
	Py_RETURN_NONE;
}

PyObject *handle_enter(PyObject *self, PyObject *unused)
{
	if (handle_check((HandleObject *)self) < 0)
		return NULL;
	Py_INCREF(self);
	return self;
}

PyObject *handle_exit(PyObject *self, PyObject *args)
{
	return handle_close(self, NULL);
}

PyObject *handle_get_closed(PyObject *self, void *closure)
{
	return PyBool_FromLong(((HandleObject *)self)->ptr == NULL);
}
