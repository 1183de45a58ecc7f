/* See host.h. Everything here runs without the GIL, except the two emu_py_* calls,
 * which cffi's "extern Python+C" stubs wrap with GIL acquisition. */
#define _GNU_SOURCE
#include "host.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Implemented in Python (emucore.libretro.session). */
bool emu_py_environment(void *userdata, unsigned cmd, void *data);
void emu_py_log(void *userdata, int level, const char *text);

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
#define HW_FRAME_BUFFER_VALID ((const void *)-1)

static __thread emu_host *tls_host;
static emu_host *last_host; /* for callbacks a core makes from a thread of its own */

static inline emu_host *current_host(void) {
    return tls_host ? tls_host : last_host;
}

#define ENTER(h) emu_host *saved_host__ = tls_host; tls_host = (h); last_host = (h)
#define LEAVE() tls_host = saved_host__

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
    h->frame_width = width;
    h->frame_height = height;
    h->frame_format = h->pixel_format;
    if (!h->copy_frames) {
        h->frame = data;
        h->frame_pitch = pitch;
        return;
    }
    /* The core may later send a dupe, after which its buffer need not hold this frame. */
    size_t row = (size_t)width * (h->pixel_format == 1 ? 4u : 2u);
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
    if (h) h->userdata = userdata;
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
    if (last_host == h) last_host = NULL;
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

void emu_init(emu_host *h) {
    if (!h) return;
    ENTER(h);
    h->retro_init();
    LEAVE();
}
void emu_deinit(emu_host *h) {
    if (!h) return;
    ENTER(h);
    h->retro_deinit();
    LEAVE();
}

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

bool emu_load_game(emu_host *h, const struct retro_game_info *game) {
    if (!h) return false;
    ENTER(h);
    bool ok = h->retro_load_game(game);
    if (ok) note_system_ram(h);
    LEAVE();
    return ok;
}

void emu_unload_game(emu_host *h) {
    if (!h) return; ENTER(h); h->retro_unload_game(); LEAVE(); }

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

void emu_reset(emu_host *h) {
    if (!h) return; ENTER(h); h->retro_reset(); note_system_ram(h); LEAVE(); }

size_t emu_serialize_size(emu_host *h) {
    if (!h) return 0;
    ENTER(h);
    size_t n = h->retro_serialize_size();
    LEAVE();
    return n;
}

bool emu_serialize(emu_host *h, void *data, size_t size) {
    if (!h) return false;
    ENTER(h);
    bool ok = h->retro_serialize(data, size);
    LEAVE();
    return ok;
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
    if (!h || !h->retro_cheat_reset) return;
    ENTER(h);
    h->retro_cheat_reset();
    LEAVE();
}

void emu_cheat_set(emu_host *h, unsigned index, bool enabled, const char *code) {
    if (!h || !h->retro_cheat_set) return;
    ENTER(h);
    h->retro_cheat_set(index, enabled, code);
    LEAVE();
}

unsigned emu_get_region(emu_host *h) {
    if (!h || !h->retro_get_region) return 0;
    ENTER(h);
    unsigned r = h->retro_get_region();
    LEAVE();
    return r;
}

void emu_libc_srand(unsigned seed) { srand(seed); }

int64_t emu_flags_to_mask(const uint8_t *flags, size_t count) {
    if (count > 48) return -1;
    int64_t mask = 0;
    for (size_t i = 0; i < count; i++) {
        if (flags[i] > 1) return -1;
        mask |= (int64_t)flags[i] << i;
    }
    return mask;
}

int emu_press(emu_host *h, unsigned port, const uint8_t *flags, size_t count, const uint16_t *table) {
    if (!h || port >= EMU_MAX_PORTS || count > 16) return -1;
    unsigned mask = 0;
    for (size_t i = 0; i < count; i++) {
        if (flags[i] > 1) return -1;
        mask |= (unsigned)flags[i] << i;
    }
    h->buttons[port] = table ? table[mask] : (uint16_t)mask;
    return 0;
}

int emu_set_buttons(emu_host *h, unsigned port, const uint8_t *flags, size_t count) {
    if (!h || port >= EMU_MAX_PORTS || count > 16) return -1;
    uint16_t bits = 0;
    for (size_t i = 0; i < count; i++)
        if (flags[i]) bits |= (uint16_t)(1u << i);
    h->buttons[port] = bits;
    return 0;
}

/* ---- pixels ----
 * stable-retro's conversions, bit-exact: the low bits are not replicated (RGB565 max is 248/252/248).
 * The per-pixel scalar form is the reference; the SSSE3 forms do 8 (RGB565) or 4 (XRGB8888) pixels
 * per step with byte shuffles, picked at run time. */

static inline void rgb565_pixel(uint16_t v, uint8_t *out) {
    out[0] = (uint8_t)((v & 0xF800) >> 8);
    out[1] = (uint8_t)((v & 0x07E0) >> 3);
    out[2] = (uint8_t)((v & 0x001F) << 3);
}

static void rgb565_row_scalar(const uint8_t *src, unsigned count, uint8_t *out) {
    for (unsigned x = 0; x < count; x++) {
        uint16_t v;
        memcpy(&v, src + 2 * x, 2);
        rgb565_pixel(v, out + 3 * x);
    }
}

static void xrgb8888_row_scalar(const uint8_t *src, unsigned count, uint8_t *out) {
    for (unsigned x = 0; x < count; x++) {
        out[3 * x] = src[4 * x + 2];
        out[3 * x + 1] = src[4 * x + 1];
        out[3 * x + 2] = src[4 * x];
    }
}

static void rgb1555_row(const uint8_t *src, unsigned count, uint8_t *out) {
    for (unsigned x = 0; x < count; x++) {
        uint16_t v;
        memcpy(&v, src + 2 * x, 2);
        out[3 * x] = (uint8_t)((v & 0x7C00) >> 7);
        out[3 * x + 1] = (uint8_t)((v & 0x03E0) >> 2);
        out[3 * x + 2] = (uint8_t)((v & 0x001F) << 3);
    }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define EMU_HAVE_SSSE3_PATH 1

__attribute__((target("ssse3"))) static void rgb565_row_ssse3(const uint8_t *src, unsigned count,
                                                                uint8_t *out) {
    const __m128i red_mask = _mm_set1_epi16((short)0xF800);
    const __m128i green_mask = _mm_set1_epi16(0x07E0);
    const __m128i blue_mask = _mm_set1_epi16(0x001F);
    /* rg holds r0 g0 r1 g1 ... r7 g7; bb holds b0..b7 twice. */
    const __m128i rg_lo = _mm_setr_epi8(0, 1, -1, 2, 3, -1, 4, 5, -1, 6, 7, -1, 8, 9, -1, 10);
    const __m128i bb_lo = _mm_setr_epi8(-1, -1, 0, -1, -1, 1, -1, -1, 2, -1, -1, 3, -1, -1, 4, -1);
    const __m128i rg_hi = _mm_setr_epi8(11, -1, 12, 13, -1, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128i bb_hi = _mm_setr_epi8(-1, 5, -1, -1, 6, -1, -1, 7, -1, -1, -1, -1, -1, -1, -1, -1);
    unsigned x = 0;
    for (; x + 8 <= count; x += 8) {
        __m128i v = _mm_loadu_si128((const __m128i *)(src + 2 * x));
        __m128i r = _mm_srli_epi16(_mm_and_si128(v, red_mask), 8);
        __m128i g = _mm_srli_epi16(_mm_and_si128(v, green_mask), 3);
        __m128i b = _mm_slli_epi16(_mm_and_si128(v, blue_mask), 3);
        __m128i rg = _mm_or_si128(r, _mm_slli_epi16(g, 8));
        __m128i bb = _mm_packus_epi16(b, b);
        __m128i lo = _mm_or_si128(_mm_shuffle_epi8(rg, rg_lo), _mm_shuffle_epi8(bb, bb_lo));
        __m128i hi = _mm_or_si128(_mm_shuffle_epi8(rg, rg_hi), _mm_shuffle_epi8(bb, bb_hi));
        _mm_storeu_si128((__m128i *)(out + 3 * x), lo);
        _mm_storel_epi64((__m128i *)(out + 3 * x + 16), hi);
    }
    rgb565_row_scalar(src + 2 * x, count - x, out + 3 * x);
}

__attribute__((target("ssse3"))) static void xrgb8888_row_ssse3(const uint8_t *src, unsigned count,
                                                                  uint8_t *out) {
    const __m128i drop_x = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    unsigned x = 0;
    for (; x + 6 <= count; x += 4) { /* the 16-byte store writes 4 bytes ahead: keep them in the row */
        __m128i v = _mm_loadu_si128((const __m128i *)(src + 4 * x));
        _mm_storeu_si128((__m128i *)(out + 3 * x), _mm_shuffle_epi8(v, drop_x));
    }
    xrgb8888_row_scalar(src + 4 * x, count - x, out + 3 * x);
}
#endif

typedef void (*row_converter)(const uint8_t *, unsigned, uint8_t *);

static row_converter row_converter_for(int format) {
#ifdef EMU_HAVE_SSSE3_PATH
    static int ssse3 = -1;
    if (ssse3 < 0) ssse3 = __builtin_cpu_supports("ssse3") ? 1 : 0;
    if (ssse3 && format == 2) return rgb565_row_ssse3;
    if (ssse3 && format == 1) return xrgb8888_row_ssse3;
#endif
    if (format == 2) return rgb565_row_scalar;
    if (format == 1) return xrgb8888_row_scalar;
    return rgb1555_row;
}

void emu_convert_pixels(const void *src, unsigned src_width, unsigned src_height, size_t pitch,
                        int format, uint8_t *dst, unsigned width, unsigned height) {
    row_converter convert = row_converter_for(format);
    unsigned cols = src_width < width ? src_width : width;
    unsigned rows = src_height < height ? src_height : height;
    size_t dst_row = (size_t)width * 3u;
    for (unsigned y = 0; y < rows; y++) {
        uint8_t *out = dst + y * dst_row;
        convert((const uint8_t *)src + y * pitch, cols, out);
        if (cols < width) memset(out + cols * 3u, 0, (width - cols) * 3u);
    }
    if (rows < height) memset(dst + rows * dst_row, 0, (height - rows) * dst_row);
}

int emu_convert_frame(const emu_host *h, uint8_t *dst, unsigned width, unsigned height) {
    if (!h || !h->frame) {
        memset(dst, 0, (size_t)width * height * 3u);
        return -1;
    }
    emu_convert_pixels(h->frame, h->frame_width, h->frame_height, h->frame_pitch, h->frame_format,
                       dst, width, height);
    return 0;
}
