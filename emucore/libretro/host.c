/* See host.h. Everything here runs without the GIL, except the two emu_py_* calls,
 * which cffi's "extern Python+C" stubs wrap with GIL acquisition. */
#define _GNU_SOURCE
#include "host.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENV_EXPERIMENTAL 0x10000u
#define RETRO_MEMORY_SYSTEM_RAM 2u
#define ENV_GET_CAN_DUPE 3u
#define ENV_SET_ROTATION 1u
#define ENV_SET_PIXEL_FORMAT 10u
#define ENV_GET_VARIABLE_UPDATE 17u
#define ENV_GET_LOG_INTERFACE 27u
#define ENV_GET_CURRENT_SOFTWARE_FRAMEBUFFER (40u | ENV_EXPERIMENTAL)
#define ENV_GET_AUDIO_VIDEO_ENABLE (47u | ENV_EXPERIMENTAL)
#define ENV_GET_INPUT_BITMASKS (51u | ENV_EXPERIMENTAL)
#define ENV_SET_MEMORY_MAPS 36u /* with ENV_EXPERIMENTAL */
#define HW_FRAME_BUFFER_VALID ((const void *)-1)

static __thread emu_host *tls_host;
/* For callbacks a core makes from a thread of its own, where no wrapper set tls_host: the host last entered,
 * trusted only while at most one thread is inside a core (a vector env's batch runs several at once, and such
 * a callback could belong to any of them: it is dropped then). Both are atomic: every batch thread writes them. */
static emu_host *last_host;
static int threads_inside;

static inline emu_host *current_host(void) {
    if (tls_host) return tls_host;
    if (__atomic_load_n(&threads_inside, __ATOMIC_ACQUIRE) > 1) return NULL;
    return __atomic_load_n(&last_host, __ATOMIC_ACQUIRE);
}

static inline emu_host *enter_host(emu_host *h) {
    emu_host *saved = tls_host;
    if (!saved) __atomic_add_fetch(&threads_inside, 1, __ATOMIC_ACQ_REL);
    tls_host = h;
    __atomic_store_n(&last_host, h, __ATOMIC_RELEASE);
    return saved;
}

static inline void leave_host(emu_host *saved) {
    tls_host = saved;
    if (!saved) __atomic_sub_fetch(&threads_inside, 1, __ATOMIC_ACQ_REL);
}

#define ENTER(h) emu_host *saved_host__ = enter_host(h)
#define LEAVE() leave_host(saved_host__)

/* called inside ENTER/LEAVE */
static void note_system_ram(emu_host *h) {
    h->asking_ram = true;
    h->ram_data = h->retro_get_memory_data(RETRO_MEMORY_SYSTEM_RAM);
    h->ram_size = h->ram_data ? h->retro_get_memory_size(RETRO_MEMORY_SYSTEM_RAM) : 0;
    h->asking_ram = false;
}

/* ---- callbacks the core calls ---- */

static void log_cb(int level, const char *fmt, ...) {
    emu_host *h = current_host();
    char text[1024];
    va_list ap;
    if (!h || !fmt) return;
    if (h->asking_ram && level < 2) return; /* genesis_plus_gx logs "return work_ram" at every ask */
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    h->python_calls++;
    emu_py_log(h->userdata, level, text);
}

struct log_interface { void (*log)(int, const char *, ...); };

static bool environment_cb(unsigned cmd, void *data) {
    emu_host *h = current_host();
    if (!h) return false;
    switch (cmd) {
    case ENV_GET_VARIABLE_UPDATE:
        if (!data) return false;
        *(bool *)data = h->variable_update;
        h->variable_update = false;
        return true;
    case ENV_GET_CURRENT_SOFTWARE_FRAMEBUFFER:
    case ENV_GET_AUDIO_VIDEO_ENABLE:
    case ENV_GET_INPUT_BITMASKS:
        return false;
    case ENV_GET_CAN_DUPE:
        if (!data) return false;
        *(bool *)data = true;
        h->can_dupe = true;
        h->copy_frames = true;
        return true;
    case ENV_SET_PIXEL_FORMAT: {
        if (!data) return false;
        int format = *(const int *)data;
        if (format < 0 || format > 2) return false;
        h->pixel_format = format;
        return true;
    }
    case ENV_SET_ROTATION:
        if (!data) return false;
        h->rotation = *(const unsigned *)data % 4u;
        return true;
    case ENV_GET_LOG_INTERFACE:
        if (!data) return false;
        ((struct log_interface *)data)->log = log_cb;
        return true;
    default:
        h->python_calls++;
        if ((cmd & ~ENV_EXPERIMENTAL) == ENV_SET_MEMORY_MAPS) h->memory_maps_sets++;
        return emu_py_environment(h->userdata, cmd, data);
    }
}

static void video_cb(const void *data, unsigned width, unsigned height, size_t pitch) {
    emu_host *h = current_host();
    if (!h) return;
    h->video_calls++;
    if (!data || data == HW_FRAME_BUFFER_VALID) {
        h->dupe_frames++;
        return;
    }
    size_t row = (size_t)width * (h->pixel_format == 1 ? 4u : 2u);
    if (pitch < row) { /* rows would overlap, and the last one run past the core's buffer: not a frame */
        h->dupe_frames++;
        return;
    }
    h->frame_width = width;
    h->frame_height = height;
    h->frame_format = h->pixel_format;
    if (!h->copy_frames) {
        h->frame = data;
        h->frame_pitch = pitch;
        return;
    }
    /* The core may later send a dupe, after which its buffer need not hold this frame. */
    size_t need = row * height;
    if (need > h->frame_copy_size) {
        uint8_t *grown = realloc(h->frame_copy, need);
        if (!grown) { h->frame = data; h->frame_pitch = pitch; return; }
        h->frame_copy = grown;
        h->frame_copy_size = need;
    }
    for (unsigned y = 0; y < height; y++)
        memcpy(h->frame_copy + y * row, (const uint8_t *)data + y * pitch, row);
    h->frame = h->frame_copy;
    h->frame_pitch = row;
}

static void audio_reserve(emu_host *h, size_t frames) {
    size_t need = h->audio_frames + frames;
    if (need <= h->audio_capacity) return;
    size_t cap = h->audio_capacity ? h->audio_capacity : 4096;
    while (cap < need) cap *= 2;
    int16_t *grown = realloc(h->audio, cap * 2 * sizeof(int16_t));
    if (!grown) { h->audio_overflow = true; return; }
    h->audio = grown;
    h->audio_capacity = cap;
}

static void audio_sample_cb(int16_t left, int16_t right) {
    emu_host *h = current_host();
    if (!h) return;
    audio_reserve(h, 1);
    if (h->audio_frames + 1 > h->audio_capacity) return;
    h->audio[2 * h->audio_frames] = left;
    h->audio[2 * h->audio_frames + 1] = right;
    h->audio_frames++;
}

static size_t audio_batch_cb(const int16_t *data, size_t frames) {
    emu_host *h = current_host();
    if (!h || !data) return frames;
    audio_reserve(h, frames);
    if (h->audio_frames + frames > h->audio_capacity) return frames;
    memcpy(h->audio + 2 * h->audio_frames, data, frames * 2 * sizeof(int16_t));
    h->audio_frames += frames;
    return frames;
}

static void input_poll_cb(void) {
    emu_host *h = current_host();
    if (h) h->input_polls++;
}

/* Like stable-retro, the device and index are not looked at, so a core sees the same
 * bits whatever it asks; ports and ids outside the pad read as released. */
static int16_t input_state_cb(unsigned port, unsigned device, unsigned index, unsigned id) {
    emu_host *h = current_host();
    (void)device;
    (void)index;
    if (!h || port >= EMU_MAX_PORTS) return 0;
    if (id >= 16) return 0; /* includes the bitmask id 256: GET_INPUT_BITMASKS is refused */
    return (h->buttons[port] >> id) & 1;
}

/* ---- loading ---- */

emu_host *emu_host_new(void *userdata) {
    emu_host *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->userdata = userdata;
    emu_rand_seed(&h->rand, 1); /* glibc's generator in a process that never seeded it */
    return h;
}

#define RESOLVE(name, required)                                                         \
    do {                                                                                \
        *(void **)&h->name = dlsym(h->dl, #name);                                       \
        if (!h->name && (required)) {                                                   \
            snprintf(h->error, sizeof h->error, "the library has no symbol " #name);    \
            return -1;                                                                  \
        }                                                                               \
    } while (0)

int emu_host_open(emu_host *h, const char *path) {
    h->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h->dl) {
        const char *why = dlerror();
        snprintf(h->error, sizeof h->error, "%s", why ? why : "dlopen failed");
        return -1;
    }
    h->rand_imports = emu_rand_bind(h->dl);
    RESOLVE(retro_api_version, 1);
    RESOLVE(retro_set_environment, 1);
    RESOLVE(retro_set_video_refresh, 1);
    RESOLVE(retro_set_audio_sample, 1);
    RESOLVE(retro_set_audio_sample_batch, 1);
    RESOLVE(retro_set_input_poll, 1);
    RESOLVE(retro_set_input_state, 1);
    RESOLVE(retro_init, 1);
    RESOLVE(retro_deinit, 1);
    RESOLVE(retro_get_system_info, 1);
    RESOLVE(retro_get_system_av_info, 1);
    RESOLVE(retro_set_controller_port_device, 0);
    RESOLVE(retro_reset, 1);
    RESOLVE(retro_run, 1);
    RESOLVE(retro_serialize_size, 1);
    RESOLVE(retro_serialize, 1);
    RESOLVE(retro_unserialize, 1);
    RESOLVE(retro_cheat_reset, 0);
    RESOLVE(retro_cheat_set, 0);
    RESOLVE(retro_load_game, 1);
    RESOLVE(retro_unload_game, 1);
    RESOLVE(retro_get_region, 0);
    RESOLVE(retro_get_memory_data, 1);
    RESOLVE(retro_get_memory_size, 1);
    return 0;
}

void emu_host_close(emu_host *h) {
    if (!h) return;
    emu_host *expected = h;
    __atomic_compare_exchange_n(&last_host, &expected, NULL, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
    if (h->dl) dlclose(h->dl);
    h->dl = NULL;
    h->frame = NULL; /* pointed into the core */
}

void emu_host_free(emu_host *h) {
    if (!h) return;
    emu_host_close(h);
    free(h->frame_copy);
    free(h->audio);
    free(h);
}

int emu_host_enter(emu_host *h, int64_t token) {
    int64_t free_ = 0;
    return __atomic_compare_exchange_n(&h->busy, &free_, token, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void emu_host_leave(emu_host *h, int64_t token) {
    __atomic_compare_exchange_n(&h->busy, &token, 0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

/* ---- wrappers: each makes h the current host for the callbacks it triggers ---- */

unsigned emu_api_version(emu_host *h) {
    if (!h) return 0;
    ENTER(h);
    unsigned v = h->retro_api_version();
    LEAVE();
    return v;
}

void emu_set_callbacks(emu_host *h) {
    if (!h) return;
    ENTER(h);
    h->retro_set_environment((void *)environment_cb);
    h->retro_set_video_refresh((void *)video_cb);
    h->retro_set_audio_sample((void *)audio_sample_cb);
    h->retro_set_audio_sample_batch((void *)audio_batch_cb);
    h->retro_set_input_poll((void *)input_poll_cb);
    h->retro_set_input_state((void *)input_state_cb);
    LEAVE();
}

/* The entry points besides retro_run and retro_unserialize, called through guard.cpp (a C++ core may throw). */
static void call_init(void *h) { ((emu_host *)h)->retro_init(); }
static void call_deinit(void *h) { ((emu_host *)h)->retro_deinit(); }
static void call_reset(void *h) { ((emu_host *)h)->retro_reset(); }
static void call_unload_game(void *h) { ((emu_host *)h)->retro_unload_game(); }

struct load_call { emu_host *h; const struct retro_game_info *game; bool ok; };
static void call_load_game(void *c) { struct load_call *l = c; l->ok = l->h->retro_load_game(l->game); }

struct serialize_call { emu_host *h; void *data; size_t size; bool ok; };
static void call_serialize(void *c) { struct serialize_call *s = c; s->ok = s->h->retro_serialize(s->data, s->size); }

struct size_call { emu_host *h; size_t size; };
static void call_serialize_size(void *c) { struct size_call *s = c; s->size = s->h->retro_serialize_size(); }

static int guarded(emu_host *h, void (*call)(void *), void *context) {
    return emu_guarded_call(call, context, h->error, sizeof h->error);
}

/* call(context) with h the current host: 0, or -1 if the core threw (for an entry point with nothing else to do
 * inside, as reset and load_game have) */
static int entered_guarded(emu_host *h, void (*call)(void *), void *context) {
    if (!h) return 0;
    ENTER(h);
    int threw = guarded(h, call, context);
    LEAVE();
    return threw;
}

int emu_init(emu_host *h) { return entered_guarded(h, call_init, h); }

int emu_deinit(emu_host *h) { return entered_guarded(h, call_deinit, h); }

void emu_get_system_info(emu_host *h, struct retro_system_info *info) {
    if (!h) return;
    ENTER(h);
    h->retro_get_system_info(info);
    LEAVE();
}

void emu_get_system_av_info(emu_host *h, struct retro_system_av_info *info) {
    if (!h) return;
    ENTER(h);
    h->retro_get_system_av_info(info);
    LEAVE();
}

int emu_load_game(emu_host *h, const struct retro_game_info *game) {
    if (!h) return 0;
    ENTER(h);
    struct load_call call = {h, game, false};
    int threw = guarded(h, call_load_game, &call);
    if (!threw && call.ok) note_system_ram(h);
    LEAVE();
    return threw ? -1 : call.ok;
}

int emu_unload_game(emu_host *h) { return entered_guarded(h, call_unload_game, h); }

int emu_run(emu_host *h) {
    if (!h) return 0;
    ENTER(h);
    h->audio_frames = 0;
    int threw = emu_guarded_run(h->retro_run, h->error, sizeof h->error);
    h->frames_run++;
    note_system_ram(h);
    LEAVE();
    return threw;
}

int emu_run_frames(emu_host *h, unsigned count) {
    if (!h) return 0;
    ENTER(h);
    int threw = 0;
    for (unsigned i = 0; i < count && !threw; i++) {
        h->audio_frames = 0;
        threw = emu_guarded_run(h->retro_run, h->error, sizeof h->error);
        h->frames_run++;
    }
    note_system_ram(h);
    LEAVE();
    return threw;
}

int emu_reset(emu_host *h) {
    if (!h) return 0;
    ENTER(h);
    int threw = guarded(h, call_reset, h);
    note_system_ram(h);
    LEAVE();
    return threw;
}

size_t emu_serialize_size(emu_host *h) {
    struct size_call call = {h, 0};
    return entered_guarded(h, call_serialize_size, &call) ? 0 : call.size;
}

int emu_serialize(emu_host *h, void *data, size_t size) {
    struct serialize_call call = {h, data, size, false};
    return entered_guarded(h, call_serialize, &call) ? -1 : call.ok;
}

int emu_unserialize(emu_host *h, const void *data, size_t size) {
    if (!h) return 0;
    ENTER(h);
    int result = emu_guarded_unserialize(h->retro_unserialize, data, size, h->error, sizeof h->error);
    if (result >= 0) note_system_ram(h);
    LEAVE();
    return result;
}

void *emu_get_memory_data(emu_host *h, unsigned id) {
    if (!h) return NULL;
    ENTER(h);
    void *p = h->retro_get_memory_data(id);
    LEAVE();
    return p;
}

size_t emu_get_memory_size(emu_host *h, unsigned id) {
    if (!h) return 0;
    ENTER(h);
    size_t n = h->retro_get_memory_size(id);
    LEAVE();
    return n;
}

void emu_set_controller_port_device(emu_host *h, unsigned port, unsigned device) {
    if (!h || !h->retro_set_controller_port_device) return;
    ENTER(h);
    h->retro_set_controller_port_device(port, device);
    LEAVE();
}

void emu_cheat_reset(emu_host *h) {
    if (!h || !h->retro_cheat_reset) { return; } ENTER(h); h->retro_cheat_reset(); LEAVE(); }

void emu_cheat_set(emu_host *h, unsigned index, bool enabled, const char *code) {
    if (!h || !h->retro_cheat_set) { return; } ENTER(h); h->retro_cheat_set(index, enabled, code); LEAVE(); }

unsigned emu_get_region(emu_host *h) {
    if (!h || !h->retro_get_region) return 0;
    ENTER(h);
    unsigned r = h->retro_get_region();
    LEAVE();
    return r;
}

void emu_host_srand(emu_host *h, unsigned seed) {
    srand(seed);
    emu_rand_seed(&h->rand, seed);
}

emu_rand_state *emu_current_rand(void) { return tls_host ? &tls_host->rand : NULL; }
