/*
 * make bench: the floor.  A C program that does nothing, linked as the
 * agent and modalias are (dynamically, against the same C library), so
 * that the benchmarks can say what starting any program costs on the
 * machine they run on: no helper or one-shot lookup can cost less.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
int main(void)
{
	return 0;
}
