/* libc's rand() and srand(), one generator per core session.
 *
 * glibc keeps one rand() state per process, and Genesis Plus GX, Stella, picodrive, nestopia and others
 * draw from it while loading and while running frames. With several sessions in a process (a vector env,
 * a spare core loading on a thread while another plays) their draws interleave, and a session's frames
 * then depend on what the others did. emu_rand_bind points a loaded core's imports of rand and srand
 * (its GOT slots) at functions that use the generator of the session running on the thread, so every
 * session draws the sequence it would draw alone in its own process. */
#ifndef EMUCORE_CORE_RAND_H
#define EMUCORE_CORE_RAND_H

#include <stdint.h>
#include <stdlib.h>

typedef struct emu_rand_state {
    struct random_data data;
    int32_t table[32]; /* glibc's TYPE_3 generator, the one rand() uses */
} emu_rand_state;
/* cdef only: typedef struct emu_rand_state { ...; } emu_rand_state; */

/* What srand(seed) does to glibc's own generator, to this one. */
void emu_rand_seed(emu_rand_state *state, unsigned seed);

/* The number of the core's rand/srand imports now pointing at the session generators (0: it imports
 * neither), or -1 where this cannot be done (an architecture without support here): the core then
 * draws from glibc's shared generator. */
int emu_rand_bind(void *dl);

/* host.c: the generator of the session that runs on this thread (NULL outside a call into a core). */
emu_rand_state *emu_current_rand(void);

#endif
