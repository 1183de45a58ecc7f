/* A vector env's step for all its envs in one call: a pool of native threads steps each env (its action
 * decoded through a table, its frames run and evaluated by emu_skip_run, its observation built into its row
 * of the batch, its reward, flags and variables written to the batch arrays, and an env whose episode ended
 * reset from its start state), with no Python and no GIL (step_batch.c). What C cannot do for an env is left to
 * Python through the env's status: nothing of it is guessed. */
#ifndef EMUCORE_STEP_BATCH_H
#define EMUCORE_STEP_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "evaluate.h"
#include "frames.h"
#include "host.h"
#include "skip.h"

/* cdef: begin */
enum {
    EMU_BATCH_OK = 0,
    EMU_BATCH_ACTION = 1,  /* the action is outside the space: nothing ran */
    EMU_BATCH_FRAMES = 2,  /* the frames stopped before the step's end (memory may have moved, or the core
                            * called into Python): run and result say how far they got */
    EMU_BATCH_RESET = 3,   /* an autoreset C cannot do (no reset in C, or the state was refused): nothing ran */
    EMU_BATCH_RESET_RAN = 4, /* a reset whose frame ran but moved memory: its evaluation is Python's */
    EMU_BATCH_THREW = 5,   /* the core threw (host->error); run says what ran before */
    EMU_BATCH_CLOSED = 6,  /* the emulator is closed, or the env is not prepared: nothing ran */
    EMU_BATCH_BUSY = 7,    /* another thread is inside the emulator (host.h's busy flag): nothing ran */
    EMU_BATCH_NO_DRAWS = 8, /* the sticky frame skip's draws are used up: nothing ran */
};

/* What emu_batch_send says */
enum {
    EMU_BATCH_SENT = 0,
    EMU_BATCH_REFUSED = -1,     /* an id out of range, twice in the call, or already in flight: nothing queued */
    EMU_BATCH_POOL_CLOSED = -2, /* emu_batch_close ran: nothing queued */
};

typedef struct emu_batch_env {
    /* how to step it, set when Python prepares it */
    emu_host *host;               /* NULL: not prepared (status EMU_BATCH_CLOSED) */
    const emu_eval_program *program;
    emu_obs *obs;                 /* NULL: the screen as it is */
    const uint16_t *table;        /* action index -> port 0's buttons; NULL: the index is the buttons */
    const int64_t *radix;         /* each action column's number of choices (2 for a button's flag) */
    int32_t columns;
    int32_t frame_skip;
    int32_t pool;                 /* max-pool the last two frames */
    int32_t reward_slot;          /* player 0's slot in the program, -1 if player 0 is not scored */
    int32_t reset_in_c;
    int32_t same_step;            /* SAME_STEP autoreset: reset in the step that ended the episode */
    const uint8_t *state;         /* the start state (NULL: none, the reset runs on from power-on) */
    size_t state_size;
    uintptr_t ram_data;           /* where the program is bound */
    size_t ram_size;
    uint64_t memory_maps_sets;
    int32_t check_ram;
    double sticky_prob;
    const double *draws;          /* uniform draws of env.np_random, used in order */
    int64_t *next_draw;
    int64_t draws_count;          /* how many draws there are */
    int64_t max_steps;            /* 0: no time limit */
    /* rows of the batch arrays */
    const int64_t *action;
    uint8_t *obs_row;
    size_t obs_size;
    unsigned screen_width, screen_height;
    int64_t *values_row;
    uint8_t *final_obs_row;       /* SAME_STEP: the last observation of an episode reset in its step */
    int64_t *final_values_row;
    double *reward;
    uint8_t *terminated;
    uint8_t *truncated;
    uint8_t *has_info;            /* the values row is this step's info (not a reset's, which has none) */
    uint8_t *final;               /* SAME_STEP: the env was reset in this step */
    int32_t *status;
    double *sums;                 /* the program's reward sums (NativeEvaluator.sums) */
    /* the episode, kept in C while Python's env is stale */
    int32_t autoreset;            /* the last step ended the episode: the next resets (NEXT_STEP) */
    int32_t sticky_ready;
    int64_t elapsed;
    int64_t frames;               /* frames evaluated since prepared, or since the last reset in C */
    int32_t resets;               /* resets done in C since prepared */
    int32_t done;                 /* the last evaluated frame was done */
    int32_t evaluated_any;
    int32_t stuck;                /* this step kept the last action for its first frame (sticky) */
    uint16_t switch_masks[EMU_MAX_PORTS];
    emu_skip_result run;
} emu_batch_env;

typedef struct emu_batch emu_batch;

/* A pool of threads - 1 native threads (the caller of emu_batch_recv is the last) over n envs. NULL if
 * out of memory or a thread could not start.
 *
 * Thread rules. Any thread may call send, recv, flying and close, at any time, concurrently. An env is in flight
 * from the send that queued it until the recv that hands it back. While the pool steps an env it holds the env's
 * host busy (emu_host_enter), so a thread calling into that emulator meanwhile is refused, as on Python's path.
 * close wakes every thread waiting in recv (which then returns EMU_BATCH_POOL_CLOSED), drops the envs not started
 * and returns once no env is stepping and no thread is inside recv: from then on no thread of the pool touches
 * an env or its emulator. The memory stays valid (calls after close return at once) until emu_batch_free. */
emu_batch *emu_batch_new(emu_batch_env *envs, int32_t n, int32_t threads);
/* close, then frees the pool: no thread may be inside a call of it, or call it after. */
void emu_batch_free(emu_batch *b);
void emu_batch_close(emu_batch *b);
/* Queues the envs ids (their actions written in their rows) to be stepped: EMU_BATCH_SENT, or nothing queued:
 * EMU_BATCH_REFUSED (an id out of range, repeated, or in flight) or EMU_BATCH_POOL_CLOSED. */
int32_t emu_batch_send(emu_batch *b, const int32_t *ids, int32_t count);
/* Waits until count envs are stepped (stepping queued ones meanwhile) and writes their ids, in the order they
 * finished, to ids; returns early: after the first env whose status is not EMU_BATCH_OK (so that Python can
 * finish it while the pool steps the others), once no env it could wait for is in flight, and after about
 * wait_ms milliseconds without one finishing (so that the caller can handle signals and call again). Returns
 * how many ids it wrote (0 included), or EMU_BATCH_POOL_CLOSED once the pool is closed. */
int32_t emu_batch_recv(emu_batch *b, int32_t count, int32_t *ids, int32_t wait_ms);
/* How many envs are in flight (sent, not yet handed back by recv); flags (n bytes, or NULL) gets which. */
int32_t emu_batch_flying(emu_batch *b, uint8_t *flags);
/* One env's step on the calling thread (what the pool runs); for tests. */
void emu_batch_step_env(emu_batch_env *e);
/* cdef: end */

#endif
