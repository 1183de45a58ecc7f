/* See step_batch.h. One env's step is RetroEnv.step's fast path (emucore/env/retro_env.py: _press,
 * _sticky_masks, _step_frames, _time_is_up) and its autoreset RetroEnv.reset's, which the tests compare. */
#include "step_batch.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH_TOKEN (-1)        /* the busy flag's token of the batch's calls (Python's are positive) */
#define SPINS 20000             /* about 0.1-0.3 ms of pause instructions */
#define SPIN_WORTH_NS 1000000   /* a wait shorter than an env step or so: the caller steps in a tight loop */

static int32_t action_index(const emu_batch_env *e) {
    int64_t index = 0, scale = 1;
    for (int32_t c = 0; c < e->columns; c++) {
        int64_t choice = e->action[c];
        if (choice < 0 || choice >= e->radix[c]) return -1;
        index += choice * scale;
        scale *= e->radix[c];
    }
    return (int32_t)index;
}

static void observe(emu_batch_env *e, int pool) {
    if (e->obs)
        emu_obs_build(e->host, e->obs, pool, e->obs_row);
    else
        emu_convert_frame(e->host, e->obs_row, e->screen_width, e->screen_height);
}

static int moved(const emu_batch_env *e, uint64_t python_calls) {
    const emu_host *h = e->host;
    if (h->python_calls != python_calls || h->memory_maps_sets != e->memory_maps_sets) return 1;
    return e->check_ram && ((uintptr_t)h->ram_data != e->ram_data || h->ram_size != e->ram_size);
}

/* RetroEnv.reset: the start state loaded, the buttons released, a frame run and evaluated as a new episode's
 * first, the observation unpooled. The outputs of the step are left to the caller. */
static int reset_env(emu_batch_env *e) {
    emu_host *h = e->host;
    if (!e->reset_in_c) return EMU_BATCH_RESET;
    uint64_t python_calls = h->python_calls;
    if (e->state && emu_unserialize(h, e->state, e->state_size) != 1) return EMU_BATCH_RESET;
    h->buttons[0] = 0;
    e->autoreset = 0;
    if (emu_run(h) != 0) return EMU_BATCH_THREW;
    if (moved(e, python_calls)) return EMU_BATCH_RESET_RAN;
    e->resets++;
    e->elapsed = 0;
    e->sticky_ready = 0;
    const emu_eval_program *p = e->program;
    for (int32_t i = 0; i < p->n_players; i++) p->totals[i] = 0.0f;
    e->done = emu_eval_run(p);
    e->frames = 1;
    e->evaluated_any = 1;
    observe(e, 0);
    return EMU_BATCH_OK;
}

static int step_env(emu_batch_env *e) {
    emu_host *h = e->host;
    if (h->closed || !h->dl) return EMU_BATCH_CLOSED; /* closed is set under the busy flag this thread holds */
    *e->final = 0;
    if (e->autoreset) {
        *e->reward = 0.0;
        *e->terminated = *e->truncated = 0;
        *e->has_info = 0;
        return reset_env(e);
    }
    int32_t index = action_index(e);
    if (index < 0) return EMU_BATCH_ACTION;
    uint16_t pressed = e->table ? e->table[index] : (uint16_t)index;
    e->stuck = 0;
    if (e->sticky_prob > 0) {
        if (*e->next_draw < 0 || *e->next_draw >= e->draws_count) return EMU_BATCH_NO_DRAWS;
        if (!e->sticky_ready)
            e->sticky_ready = 1;
        else
            e->stuck = !(e->draws[(*e->next_draw)++] > e->sticky_prob);
    }
    const uint16_t *switch_masks = NULL;
    if (e->stuck) { /* the last action stays for the first frame, the new one from the second */
        memcpy(e->switch_masks, h->buttons, sizeof e->switch_masks);
        e->switch_masks[0] = pressed;
        switch_masks = e->switch_masks;
    } else {
        h->buttons[0] = pressed;
    }
    const emu_eval_program *p = e->program;
    int threw = emu_skip_run(h, p, e->frame_skip, e->pool ? e->obs : NULL, e->ram_data, e->ram_size,
                             e->memory_maps_sets, e->check_ram, switch_masks, e->sums, &e->run);
    int32_t evaluated = e->run.evaluated;
    if (evaluated) {
        e->frames += evaluated;
        e->done = e->run.done;
        e->evaluated_any = 1;
    }
    if (threw) return EMU_BATCH_THREW;
    if (!(evaluated == e->frame_skip || (evaluated && e->run.done))) return EMU_BATCH_FRAMES;
    observe(e, e->pool && evaluated == e->frame_skip);
    *e->reward = e->reward_slot >= 0 ? e->sums[e->reward_slot] : 0.0;
    *e->terminated = (uint8_t)(e->done != 0);
    e->elapsed++;
    *e->truncated = (uint8_t)(e->max_steps > 0 && e->elapsed >= e->max_steps);
    memcpy(e->values_row, p->values, (size_t)p->n_vars * sizeof *e->values_row);
    *e->has_info = 1;
    if (!*e->terminated && !*e->truncated) return EMU_BATCH_OK;
    if (!e->same_step) {
        e->autoreset = 1;
        return EMU_BATCH_OK;
    }
    memcpy(e->final_obs_row, e->obs_row, e->obs_size);
    memcpy(e->final_values_row, e->values_row, (size_t)p->n_vars * sizeof *e->values_row);
    *e->final = 1;
    *e->has_info = 0;
    e->autoreset = 1; /* if C cannot reset it, Python does, from here */
    return reset_env(e);
}

void emu_batch_step_env(emu_batch_env *e) {
    emu_host *h = e->host;
    if (!h) {
        *e->status = EMU_BATCH_CLOSED;
    } else if (!emu_host_enter(h, BATCH_TOKEN)) {
        *e->status = EMU_BATCH_BUSY;
    } else {
        *e->status = step_env(e);
        emu_host_leave(h, BATCH_TOKEN);
    }
}

/* ---- the pool ---- */

/* Waiting awake: a pause instruction where there is one. */
#if defined(__x86_64__) || defined(__i386__)
#define CPU_RELAX() __builtin_ia32_pause()
#elif defined(__aarch64__) || defined(__arm__)
#define CPU_RELAX() __asm__ __volatile__("yield" ::: "memory")
#else
#define CPU_RELAX() __asm__ __volatile__("" ::: "memory")
#endif

/* The rings' ends and closing are written under the lock, and read without it only to decide whether to keep
 * spinning (the lock then says for sure): every access is atomic, so that such a read is not a data race. */
#define LOAD(field) __atomic_load_n(&(field), __ATOMIC_ACQUIRE)
#define STORE(field, value) __atomic_store_n(&(field), (value), __ATOMIC_RELEASE)

struct emu_batch {
    pthread_mutex_t lock;
    pthread_cond_t queued;   /* an env was queued, or the pool closes */
    pthread_cond_t finished; /* an env was stepped, or the pool closes */
    pthread_cond_t quiet;    /* closing, the last stepping env or thread inside recv left */
    emu_batch_env *envs;
    int32_t n;
    int32_t *queue;          /* rings of n + 1 */
    int32_t queue_head, queue_tail;
    int32_t *done;
    int32_t done_head, done_tail;
    uint8_t *flying;         /* per env: sent, not yet handed back by recv */
    int32_t flying_count;
    int32_t stepping;        /* envs being stepped now, by the pool's threads or recv's callers */
    int32_t inside;          /* threads inside emu_batch_recv */
    int32_t serving;         /* pool threads not yet out of their loop */
    int closing;
    pthread_t *threads;
    int32_t n_threads;
    int synced;              /* the mutex and conditions were made (emu_batch_free destroys them) */
};

static int32_t ring_next(const emu_batch *b, int32_t at) {
    return at == b->n ? 0 : at + 1;
}

static void note_quiet(emu_batch *b) {
    if (b->closing && b->stepping == 0 && b->inside == 0 && b->serving == 0) pthread_cond_broadcast(&b->quiet);
}

/* Takes a queued env and steps it, with the lock held on entry and on return. */
static void step_one(emu_batch *b) {
    int32_t id = b->queue[b->queue_head];
    STORE(b->queue_head, ring_next(b, b->queue_head));
    b->stepping++;
    pthread_mutex_unlock(&b->lock);
    emu_batch_step_env(&b->envs[id]);
    pthread_mutex_lock(&b->lock);
    b->stepping--;
    b->done[b->done_tail] = id;
    STORE(b->done_tail, ring_next(b, b->done_tail));
    pthread_cond_broadcast(&b->finished);
    note_quiet(b);
}

/* Whether an env may be queued, read without the lock (the lock then says for sure). */
static int maybe_queued(emu_batch *b) {
    return LOAD(b->queue_head) != LOAD(b->queue_tail) || LOAD(b->closing);
}

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static struct timespec deadline_after(int64_t ns) {
    int64_t at = now_ns() + ns;
    struct timespec t = {.tv_sec = (time_t)(at / 1000000000), .tv_nsec = (long)(at % 1000000000)};
    return t;
}

static void *serve(void *arg) {
    emu_batch *b = arg;
    int spins = SPINS;
    pthread_mutex_lock(&b->lock);
    for (;;) {
        if (b->queue_head == b->queue_tail && !b->closing) {
            /* The next batch comes within the Python between two steps: wait for it awake, briefly, as a
             * sleeping thread takes tens of microseconds to wake. Where the caller does more between steps (a
             * policy's forward pass), spinning would only take a core from it: the next wait does not spin if
             * this one was longer than spinning could have bridged. */
            int64_t started = now_ns();
            pthread_mutex_unlock(&b->lock);
            for (int spin = 0; spin < spins && !maybe_queued(b); spin++)
                CPU_RELAX();
            pthread_mutex_lock(&b->lock);
            while (b->queue_head == b->queue_tail && !b->closing)
                pthread_cond_wait(&b->queued, &b->lock);
            spins = now_ns() - started < SPIN_WORTH_NS ? SPINS : 0;
        }
        if (b->closing) break;
        step_one(b);
    }
    b->serving--;
    note_quiet(b);
    pthread_mutex_unlock(&b->lock);
    return NULL;
}

emu_batch *emu_batch_new(emu_batch_env *envs, int32_t n, int32_t threads) {
    if (n < 1) return NULL;
    emu_batch *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->envs = envs;
    b->n = n;
    b->queue = calloc((size_t)n + 1, sizeof *b->queue);
    b->done = calloc((size_t)n + 1, sizeof *b->done);
    b->flying = calloc((size_t)n, sizeof *b->flying);
    b->threads = calloc(threads > 1 ? (size_t)threads - 1 : 1, sizeof *b->threads);
    pthread_condattr_t monotonic;
    if (!b->queue || !b->done || !b->flying || !b->threads || pthread_condattr_init(&monotonic) != 0) {
        emu_batch_free(b);
        return NULL;
    }
    pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC); /* recv's timed waits count from now_ns's clock */
    pthread_mutex_init(&b->lock, NULL);
    pthread_cond_init(&b->queued, NULL);
    pthread_cond_init(&b->finished, &monotonic);
    pthread_cond_init(&b->quiet, NULL);
    pthread_condattr_destroy(&monotonic);
    b->synced = 1;
    for (int32_t i = 0; i < threads - 1; i++) {
        pthread_mutex_lock(&b->lock);
        b->serving++;
        pthread_mutex_unlock(&b->lock);
        if (pthread_create(&b->threads[i], NULL, serve, b) != 0) {
            pthread_mutex_lock(&b->lock);
            b->serving--;
            pthread_mutex_unlock(&b->lock);
            emu_batch_free(b);
            return NULL;
        }
        b->n_threads++;
    }
    return b;
}

void emu_batch_close(emu_batch *b) {
    pthread_mutex_lock(&b->lock);
    STORE(b->closing, 1);
    STORE(b->queue_head, b->queue_tail); /* the envs not started stay in flight: nothing hands them back */
    pthread_cond_broadcast(&b->queued);
    pthread_cond_broadcast(&b->finished);
    while (b->stepping > 0 || b->inside > 0 || b->serving > 0)
        pthread_cond_wait(&b->quiet, &b->lock);
    pthread_mutex_unlock(&b->lock);
}

void emu_batch_free(emu_batch *b) {
    if (!b) return;
    if (b->synced) {
        emu_batch_close(b);
        for (int32_t i = 0; i < b->n_threads; i++) { /* out of their loop already (close waited for serving == 0) */
            if (pthread_equal(b->threads[i], pthread_self()))
                pthread_detach(b->threads[i]); /* freed by a finalizer a callback ran on a pool thread */
            else
                pthread_join(b->threads[i], NULL);
        }
        pthread_mutex_destroy(&b->lock);
        pthread_cond_destroy(&b->queued);
        pthread_cond_destroy(&b->finished);
        pthread_cond_destroy(&b->quiet);
    }
    free(b->threads);
    free(b->queue);
    free(b->done);
    free(b->flying);
    free(b);
}

int32_t emu_batch_send(emu_batch *b, const int32_t *ids, int32_t count) {
    pthread_mutex_lock(&b->lock);
    if (b->closing) {
        pthread_mutex_unlock(&b->lock);
        return EMU_BATCH_POOL_CLOSED;
    }
    /* checked whole before anything is queued: the rings hold n ids, each env at most once */
    int32_t marked = 0;
    int refused = count < 0;
    for (; marked < count && !refused; marked++) {
        int32_t id = ids[marked];
        if (id < 0 || id >= b->n || b->flying[id]) refused = 1;
        else b->flying[id] = 1;
    }
    if (refused) {
        for (int32_t i = 0; i < marked - 1; i++) b->flying[ids[i]] = 0;
        pthread_mutex_unlock(&b->lock);
        return EMU_BATCH_REFUSED;
    }
    for (int32_t i = 0; i < count; i++) {
        b->queue[b->queue_tail] = ids[i];
        STORE(b->queue_tail, ring_next(b, b->queue_tail));
    }
    b->flying_count += count;
    pthread_cond_broadcast(&b->queued);
    pthread_mutex_unlock(&b->lock);
    return EMU_BATCH_SENT;
}

int32_t emu_batch_flying(emu_batch *b, uint8_t *flags) {
    pthread_mutex_lock(&b->lock);
    int32_t flying = b->flying_count;
    if (flags) memcpy(flags, b->flying, (size_t)b->n);
    pthread_mutex_unlock(&b->lock);
    return flying;
}

int32_t emu_batch_recv(emu_batch *b, int32_t count, int32_t *ids, int32_t wait_ms) {
    int32_t taken = 0;
    pthread_mutex_lock(&b->lock);
    b->inside++;
    struct timespec deadline = deadline_after((int64_t)(wait_ms > 0 ? wait_ms : 0) * 1000000);
    while (taken < count && !b->closing) {
        if (b->done_head != b->done_tail) {
            int32_t id = b->done[b->done_head];
            STORE(b->done_head, ring_next(b, b->done_head));
            b->flying[id] = 0;
            b->flying_count--;
            ids[taken++] = id;
            if (*b->envs[id].status != EMU_BATCH_OK) break; /* Python finishes it while the others step */
        } else if (b->queue_head != b->queue_tail) {
            step_one(b); /* this thread steps an env instead of waiting */
        } else if (b->flying_count == 0 || b->stepping == 0) {
            break; /* nothing it could wait for is in flight */
        } else {
            /* the last envs are stepping on the pool's threads and finish within a step: wait for them awake,
             * then asleep, in slices, so that the caller sees its signals */
            int32_t seen = b->done_tail;
            pthread_mutex_unlock(&b->lock);
            for (int spin = 0; spin < SPINS && LOAD(b->done_tail) == seen && !LOAD(b->closing); spin++)
                CPU_RELAX();
            pthread_mutex_lock(&b->lock);
            if (b->done_tail == seen && !b->closing &&
                pthread_cond_timedwait(&b->finished, &b->lock, &deadline) != 0 && b->done_tail == seen)
                break; /* the slice is over */
        }
    }
    int closed = b->closing;
    b->inside--;
    note_quiet(b);
    pthread_mutex_unlock(&b->lock);
    return closed ? EMU_BATCH_POOL_CLOSED : taken;
}
