; studio_demo.s - "StudioDemo-Nes", a tiny homebrew NES game used as a test
; target for Retro Integration Studio (RAM search, data.json, scenario.json).
;
; Cartridge: iNES mapper 0 (NROM-128), 16 KiB PRG, 8 KiB CHR, horizontal
; mirroring. Assemble with ca65 and link with nrom.cfg (see build.py).
;
; Design: the reset code initialises everything, then the CPU idles in an
; endless loop. All per-frame work happens in the NMI (vertical blank)
; handler, in this order:
;   1. PPU updates from the values computed in the previous frame
;      (OAM DMA, backdrop colour, score/lives/message tiles, scroll).
;   2. frame counter += 1
;   3. read the controller, run the game logic, recompute the score digits,
;      the "trap" bytes (bonus tiles, rest, hud_buf) and the OAM shadow for
;      the next frame. The top score trap is updated first, from the score of
;      the previous frame.
; So RAM reflects the input of the current frame immediately, and the
; picture lags RAM by one frame (normal for NES games).
;
; See README.md for the RAM map and timings.

; ---------------------------------------------------------------------------
; Hardware registers
; ---------------------------------------------------------------------------
PPUCTRL   = $2000
PPUMASK   = $2001
PPUSTATUS = $2002
OAMADDR   = $2003
PPUSCROLL = $2005
PPUADDR   = $2006
PPUDATA   = $2007
DMC_FREQ  = $4010
OAMDMA    = $4014
APU_STATUS = $4015
JOY1      = $4016
APU_FRAME = $4017

; ---------------------------------------------------------------------------
; RAM map (fixed addresses, all in zero page; documented in README.md)
; ---------------------------------------------------------------------------
tmp0          = $00     ; scratch (digit conversion)
tmp1          = $01
tmp2          = $02

frame         = $10     ; <u2  frames since NMI was enabled (wraps at 65536)
game_over     = $12     ; |u1  0 = playing, 1 = game over
lives         = $13     ; |u1  3..0
timer         = $14     ; <u2  play frames left until the next life is lost (300..1)
pos_x         = $16     ; |u1  sprite left edge, pixels, XMIN..XMAX
pos_y         = $17     ; |u1  sprite top row, scanlines, YMIN..YMAX
dx            = $18     ; |i1  horizontal move applied this frame: -1, 0, +1
backdrop      = $19     ; |u1  NES colour written to $3F00 in the next NMI
buttons       = $1A     ; |u1  buttons held this frame (bit7..0 = A B Sel St U D L R)
buttons_prev  = $1B     ; |u1  buttons held in the previous frame
buttons_new   = $1C     ; |u1  buttons newly pressed this frame
score         = $20     ; <u2  score, saturates at 65535
score_digits  = $22     ; >n5  5 bytes $22-$26: decimal digits of score, MSD first

; Traps for memory-search tools (added later, in bytes that were unused; see
; README.md "Traps for the assisted tools"). None of them feeds back into the
; variables above.
tmp3          = $03     ; scratch: 16-bit value for to_dec5 (cleared after use)
tmp4          = $04
tmp5          = $05
bonus         = $30     ; <u2  binary count of hundreds (SELECT frames), 0..9999; shown as dddd00
rest          = $33     ; |u1  extra lives = max(lives - 1, 0)
dying         = $34     ; |u1  $9E at every life loss, counts down to $81 then 0 ($9E frozen in game over)
hud_buf       = $40     ; >d3  $40-$42: packed BCD, score on frames with frame&3 != 0, timer on the others
bonus_tiles   = $50     ; 4 bytes $50-$53: tiles ('0'-'9') of the bonus count for the next NMI
conv          = $54     ; 5 bytes $54-$58: to_dec5 output (scratch, cleared after use)
over_delay    = $35     ; |u1  frames until "GAME OVER" is drawn: OVER_DELAY while playing, -1 per game-over frame
top           = $08     ; >n5  5 bytes $08-$0C: top score = max(top, score of the previous frame), kept across restarts

oam_shadow    = $0200   ; 256-byte sprite buffer copied by OAM DMA

; ---------------------------------------------------------------------------
; Constants
; ---------------------------------------------------------------------------
BTN_A      = %10000000
BTN_B      = %01000000
BTN_SELECT = %00100000
BTN_START  = %00010000
BTN_UP     = %00001000
BTN_DOWN   = %00000100
BTN_LEFT   = %00000010
BTN_RIGHT  = %00000001

START_LIVES = 3
LIFE_FRAMES = 300       ; play frames per life
BONUS_MAX   = 9999      ; bonus saturates here (shown as 999900)
DYING_START = $9E       ; dying after a life loss: -98 as |i1, 30 frames >= $81
DYING_LAST  = $81       ; the last value before dying drops to 0
OVER_DELAY  = 224       ; frames between the game over and its text (3.7 s)
BLINK_MASK  = $1F       ; the score digits blink with a period of 32 frames...
BLINK_FROM  = 26        ; ...and are hidden when (frame & BLINK_MASK) >= BLINK_FROM (6 frames of 32)

; The sprite is 16x16. Keep it fully inside the 240x224 picture that
; stable-retro's NES core outputs (pixels 8..247 of scanlines 8..231; the
; outer 8-pixel borders are overscan that TVs and many emulators hide).
XMIN    = 8
XMAX    = 248 - 16      ; 232
YMIN    = 8
YMAX    = 232 - 16      ; 216
START_X = 120
START_Y = 112

COLOR_PLAYING  = $12    ; blue
COLOR_A_HELD   = $1A    ; green
COLOR_GAMEOVER = $16    ; red
COLOR_TEXT     = $30    ; white

; Nametable positions (nametable 0 at $2000, 32 tiles per row)
NT_SCORE_LABEL = $2000 + 2*32 + 2       ; "SCORE" at row 2, column 2
NT_SCORE       = NT_SCORE_LABEL + 6     ; 5 digits at row 2, columns 8-12
NT_LIVES_LABEL = $2000 + 2*32 + 22      ; "LIVES" at row 2, column 22
NT_LIVES       = NT_LIVES_LABEL + 6     ; 1 digit at row 2, column 28
NT_BONUS_LABEL = $2000 + 4*32 + 2       ; "BONUS" at row 4, column 2
NT_BONUS       = NT_BONUS_LABEL + 6     ; 4 digits at row 4, columns 8-11
NT_BONUS_ZEROS = NT_BONUS + 4           ; fixed "00" at columns 12-13
NT_REST_LABEL  = $2000 + 4*32 + 23      ; "REST" at row 4, columns 23-26
NT_REST        = NT_REST_LABEL + 5      ; 1 digit at row 4, column 28
NT_TOP_LABEL   = $2000 + 6*32 + 2       ; "TOP" at row 6, column 2
NT_TOP         = NT_TOP_LABEL + 6       ; 5 digits at row 6, columns 8-12 (under the score's)
NT_TITLE       = $2000 + 26*32 + 10     ; "STUDIO DEMO" at row 26
NT_MSG1        = $2000 + 13*32 + 10     ; message line 1 (11 tiles)
NT_MSG2        = $2000 + 15*32 + 10     ; message line 2 (11 tiles)
MSG_LEN        = 11

; ---------------------------------------------------------------------------
; iNES header
; ---------------------------------------------------------------------------
.segment "HEADER"
    .byte "NES", $1A
    .byte 1             ; PRG-ROM size in 16 KiB units
    .byte 1             ; CHR-ROM size in 8 KiB units
    .byte $00           ; flags 6: mapper 0 (low nibble), horizontal mirroring, no battery/trainer
    .byte $00           ; flags 7: mapper 0 (high nibble), plain iNES 1.0
    .byte 0, 0, 0, 0, 0, 0, 0, 0

; ---------------------------------------------------------------------------
; Code
; ---------------------------------------------------------------------------
.segment "CODE"

reset:
    sei                     ; no IRQs
    cld                     ; (the 2A03 has no decimal mode; keep it clean anyway)
    ldx #$40
    stx APU_FRAME           ; disable APU frame IRQ
    ldx #$FF
    txs                     ; stack pointer = $01FF
    inx                     ; X = 0
    stx PPUCTRL             ; NMI off
    stx PPUMASK             ; rendering off
    stx DMC_FREQ            ; DMC IRQ off
    stx APU_STATUS          ; silence all channels

    ; Clear all 2 KiB of internal RAM (power-on contents differ between
    ; emulators), then hide all sprites in the OAM shadow. This uses no
    ; stack, so clearing page 1 is safe.
    lda #$00
@clear_ram:
    sta $0000, x
    sta $0100, x
    sta $0200, x
    sta $0300, x
    sta $0400, x
    sta $0500, x
    sta $0600, x
    sta $0700, x
    inx
    bne @clear_ram
    lda #$FF                ; Y = $FF puts a sprite below the screen
@hide_sprites:
    sta oam_shadow, x
    inx
    bne @hide_sprites

    ; Initialise the game state right away (before the PPU warm-up), so
    ; lives = 3 is already in RAM at the end of the very first frame.
    jsr new_game
    jsr update_digits
    jsr update_backdrop
    jsr build_oam
    jsr update_traps

    ; PPU warm-up: wait for two vertical blanks before touching the PPU.
    bit PPUSTATUS           ; clear a stale vblank flag
@vblank1:
    bit PPUSTATUS
    bpl @vblank1
@vblank2:
    bit PPUSTATUS
    bpl @vblank2

    jsr init_ppu_memory

    ; Turn the display on at the start of a vertical blank so the first
    ; rendered frame is complete.
@vblank3:
    bit PPUSTATUS
    bpl @vblank3
    lda #$00
    sta PPUSCROLL
    sta PPUSCROLL
    lda #%10000000          ; NMI on, nametable $2000, +1 increment, all patterns at $0000, 8x8 sprites
    sta PPUCTRL
    lda #%00011110          ; show background and sprites, including the leftmost 8 pixels
    sta PPUMASK

forever:
    jmp forever             ; everything else happens in the NMI handler

; ---------------------------------------------------------------------------
; init_ppu_memory: palette, cleared nametables, static text. Rendering off.
; ---------------------------------------------------------------------------
init_ppu_memory:
    ; palettes ($3F00-$3F1F)
    lda #$3F
    sta PPUADDR
    lda #$00
    sta PPUADDR
    ldx #$00
@palette:
    lda palette_data, x
    sta PPUDATA
    inx
    cpx #32
    bne @palette

    ; clear $2000-$2FFF (both physical nametables + attribute tables)
    lda #$20
    sta PPUADDR
    lda #$00
    sta PPUADDR
    ldy #16                 ; 16 pages of 256 bytes
    tax                     ; X = 0
@clear_nt:
    sta PPUDATA
    inx
    bne @clear_nt
    dey
    bne @clear_nt

    ; static text
    lda #>NT_SCORE_LABEL
    sta PPUADDR
    lda #<NT_SCORE_LABEL
    sta PPUADDR
    ldx #0
@score_label:
    lda text_score, x
    sta PPUDATA
    inx
    cpx #5
    bne @score_label

    lda #>NT_LIVES_LABEL
    sta PPUADDR
    lda #<NT_LIVES_LABEL
    sta PPUADDR
    ldx #0
@lives_label:
    lda text_lives, x
    sta PPUDATA
    inx
    cpx #5
    bne @lives_label

    lda #>NT_BONUS_LABEL
    sta PPUADDR
    lda #<NT_BONUS_LABEL
    sta PPUADDR
    ldx #0
@bonus_label:
    lda text_bonus, x
    sta PPUDATA
    inx
    cpx #5
    bne @bonus_label

    lda #>NT_BONUS_ZEROS    ; the fixed "00" after the 4 bonus digits
    sta PPUADDR
    lda #<NT_BONUS_ZEROS
    sta PPUADDR
    lda #'0'
    sta PPUDATA
    sta PPUDATA

    lda #>NT_REST_LABEL
    sta PPUADDR
    lda #<NT_REST_LABEL
    sta PPUADDR
    ldx #0
@rest_label:
    lda text_rest, x
    sta PPUDATA
    inx
    cpx #4
    bne @rest_label

    lda #>NT_TOP_LABEL
    sta PPUADDR
    lda #<NT_TOP_LABEL
    sta PPUADDR
    ldx #0
@top_label:
    lda text_top, x
    sta PPUDATA
    inx
    cpx #3
    bne @top_label

    lda #>NT_TITLE
    sta PPUADDR
    lda #<NT_TITLE
    sta PPUADDR
    ldx #0
@title:
    lda text_title, x
    sta PPUDATA
    inx
    cpx #11
    bne @title
    rts

; ---------------------------------------------------------------------------
; NMI: once per frame
; ---------------------------------------------------------------------------
nmi:
    pha
    txa
    pha
    tya
    pha

    ; ---- 1. PPU updates (must finish inside vertical blank) --------------
    lda #$00
    sta OAMADDR
    lda #>oam_shadow
    sta OAMDMA              ; copy $0200-$02FF to OAM (513+ cycles)

    bit PPUSTATUS           ; reset the $2005/$2006 write latch
    lda #$3F                ; backdrop colour
    sta PPUADDR
    lda #$00
    sta PPUADDR
    lda backdrop
    sta PPUDATA

    lda #>NT_SCORE          ; 5 score digits
    sta PPUADDR
    lda #<NT_SCORE
    sta PPUADDR
    ldx #0
    lda frame               ; trap: blank on 6 frames of every 32 (a blinking score)
    and #BLINK_MASK
    cmp #BLINK_FROM
    bcs @blank_digits
@digits:
    lda score_digits, x
    ora #'0'                ; digit -> tile number ('0' = $30)
    sta PPUDATA
    inx
    cpx #5
    bne @digits
    beq @digits_done        ; always taken
@blank_digits:
    lda #' '
    sta PPUDATA
    inx
    cpx #5
    bne @blank_digits
@digits_done:

    lda #>NT_TOP            ; 5 top score digits
    sta PPUADDR
    lda #<NT_TOP
    sta PPUADDR
    ldx #0
@top_digits:
    lda top, x
    ora #'0'
    sta PPUDATA
    inx
    cpx #5
    bne @top_digits

    lda #>NT_LIVES          ; lives digit
    sta PPUADDR
    lda #<NT_LIVES
    sta PPUADDR
    lda lives
    ora #'0'
    sta PPUDATA

    lda #>NT_BONUS          ; 4 bonus digits (tiles prepared by update_traps)
    sta PPUADDR
    lda #<NT_BONUS
    sta PPUADDR
    ldx #0
@bonus_digits:
    lda bonus_tiles, x
    sta PPUDATA
    inx
    cpx #4
    bne @bonus_digits

    lda #>NT_REST           ; rest digit
    sta PPUADDR
    lda #<NT_REST
    sta PPUADDR
    lda rest
    ora #'0'
    sta PPUDATA

    ; message lines: blank while playing, "GAME OVER"/"PRESS START" in game
    ; over once over_delay has run out (a trap: the text comes seconds late)
    ldx #0
    lda game_over
    beq :+
    lda over_delay
    bne :+
    ldx #2*MSG_LEN
:   lda #>NT_MSG1
    sta PPUADDR
    lda #<NT_MSG1
    sta PPUADDR
    ldy #MSG_LEN
@msg1:
    lda text_messages, x
    sta PPUDATA
    inx
    dey
    bne @msg1
    lda #>NT_MSG2
    sta PPUADDR
    lda #<NT_MSG2
    sta PPUADDR
    ldy #MSG_LEN
@msg2:
    lda text_messages, x
    sta PPUDATA
    inx
    dey
    bne @msg2

    lda #$00                ; scroll to (0, 0), nametable $2000
    sta PPUSCROLL
    sta PPUSCROLL
    lda #%10000000
    sta PPUCTRL

    ; ---- 2. frame counter --------------------------------------------------
    inc frame
    bne :+
    inc frame+1
:
    ; ---- 3. input and game logic -----------------------------------------
    jsr update_top          ; trap: from the score of the previous frame
    jsr read_joypad
    jsr update_game
    jsr update_digits
    jsr update_backdrop
    jsr build_oam
    jsr update_traps

    pla
    tay
    pla
    tax
    pla
irq:
    rti

; ---------------------------------------------------------------------------
; read_joypad: buttons = A B Select Start Up Down Left Right (bit 7..0)
; ---------------------------------------------------------------------------
read_joypad:
    lda buttons
    sta buttons_prev
    lda #$01
    sta JOY1                ; strobe on: latch the buttons
    sta buttons             ; bit 0 set: after 8 shifts it falls into carry
    lda #$00
    sta JOY1                ; strobe off: start serial output
@bit:
    lda JOY1
    and #%00000011          ; standard controller (bit 0) or Famicom expansion (bit 1)
    cmp #$01                ; carry = button pressed
    rol buttons
    bcc @bit
    lda buttons_prev
    eor #$FF
    and buttons
    sta buttons_new
    rts

; ---------------------------------------------------------------------------
; new_game: reset everything except the frame counter and button history
; ---------------------------------------------------------------------------
new_game:
    lda #$00
    sta game_over
    sta score
    sta score+1
    sta dx
    sta bonus
    sta bonus+1
    sta dying
    lda #OVER_DELAY         ; trap: idle at its full count while playing (so the
    sta over_delay          ; frame of the game over itself looks like play here)
    lda #START_LIVES
    sta lives
    lda #<LIFE_FRAMES
    sta timer
    lda #>LIFE_FRAMES
    sta timer+1
    lda #START_X
    sta pos_x
    lda #START_Y
    sta pos_y
    rts

; ---------------------------------------------------------------------------
; update_game: one frame of game logic
; ---------------------------------------------------------------------------
update_game:
    lda game_over
    beq @playing

    ; game over: nothing moves; START (newly pressed) starts a new game, also
    ; before the text is shown
    lda over_delay
    beq :+
    dec over_delay
:   lda #$00
    sta dx
    lda buttons_new
    and #BTN_START
    beq @done
    jsr new_game
@done:
    rts

@playing:
    ; dying: counts down from DYING_START to DYING_LAST, then 0
    lda dying
    cmp #DYING_LAST
    bcc @dying_done         ; 0 (or any value below $81): nothing to do
    sbc #1                  ; carry is set here
    cmp #DYING_LAST
    bcs :+
    lda #$00
:   sta dying
@dying_done:

    ; horizontal: exactly one of Left/Right must be held
    lda #$00
    sta dx
    lda buttons
    and #(BTN_LEFT | BTN_RIGHT)
    cmp #BTN_LEFT
    bne @not_left
    lda pos_x
    cmp #XMIN+1
    bcc @horizontal_done    ; already at XMIN
    dec pos_x
    lda #$FF                ; -1
    sta dx
    jmp @horizontal_done
@not_left:
    cmp #BTN_RIGHT
    bne @horizontal_done
    lda pos_x
    cmp #XMAX
    bcs @horizontal_done    ; already at XMAX
    inc pos_x
    lda #$01
    sta dx
@horizontal_done:

    ; vertical: exactly one of Up/Down must be held
    lda buttons
    and #(BTN_UP | BTN_DOWN)
    cmp #BTN_UP
    bne @not_up
    lda pos_y
    cmp #YMIN+1
    bcc @vertical_done
    dec pos_y
    jmp @vertical_done
@not_up:
    cmp #BTN_DOWN
    bne @vertical_done
    lda pos_y
    cmp #YMAX
    bcs @vertical_done
    inc pos_y
@vertical_done:

    ; score: A = +1, B = +10 per frame held (both = +11)
    bit buttons             ; N = A, V = B
    bpl @no_a
    lda #1
    jsr add_score
@no_a:
    bit buttons
    bvc @no_b
    lda #10
    jsr add_score
@no_b:

    ; bonus: +1 (one hundred shown) per frame SELECT is held, up to BONUS_MAX
    lda buttons
    and #BTN_SELECT
    beq @no_select
    lda bonus
    cmp #<BONUS_MAX
    lda bonus+1
    sbc #>BONUS_MAX
    bcs @no_select          ; bonus >= BONUS_MAX
    inc bonus
    bne @no_select
    inc bonus+1
@no_select:

    ; life timer
    lda timer
    bne :+
    dec timer+1
:   dec timer
    lda timer
    ora timer+1
    bne @timer_done
    lda #<LIFE_FRAMES
    sta timer
    lda #>LIFE_FRAMES
    sta timer+1
    lda #DYING_START        ; every life loss, the last one included
    sta dying
    dec lives
    bne @timer_done
    lda #$01
    sta game_over
@timer_done:
    rts

; add_score: score += A, saturating at 65535
add_score:
    clc
    adc score
    sta score
    lda score+1
    adc #$00
    sta score+1
    bcc :+
    lda #$FF
    sta score
    sta score+1
:   rts

; ---------------------------------------------------------------------------
; update_digits: score_digits[0..4] = decimal digits of score (MSD first)
; by repeated subtraction of 10000, 1000, 100, 10.
; ---------------------------------------------------------------------------
update_digits:
    lda score
    sta tmp0
    lda score+1
    sta tmp1
    ldx #0
@next_digit:
    ldy #0
@subtract:
    lda tmp0
    sec
    sbc pow10_lo, x
    sta tmp2
    lda tmp1
    sbc pow10_hi, x
    bcc @store              ; would go negative: digit found
    sta tmp1
    lda tmp2
    sta tmp0
    iny
    bne @subtract           ; always taken
@store:
    sty score_digits, x
    inx
    cpx #4
    bne @next_digit
    lda tmp0                ; remainder = ones
    sta score_digits+4
    rts

; ---------------------------------------------------------------------------
; update_top: top = max(top, score), both as 5 decimal digits MSD first. It
; runs before the game logic, so it sees the score of the previous frame: the
; top score follows a rising score one frame late. Nothing resets it but a
; power-on, so a new game keeps the old game's best until it is beaten.
; ---------------------------------------------------------------------------
update_top:
    ldx #0
@compare:
    lda score_digits, x
    cmp top, x
    bcc @done               ; score < top
    bne @copy               ; score > top
    inx
    cpx #5
    bne @compare
    rts                     ; equal
@copy:
    ldx #4
:   lda score_digits, x
    sta top, x
    dex
    bpl :-
@done:
    rts

; ---------------------------------------------------------------------------
; update_traps: the bytes that exist to trap memory-search tools.
;   rest        = max(lives - 1, 0)
;   bonus_tiles = tiles of the 4 decimal digits of bonus (drawn before "00")
;   hud_buf     = 6 packed-BCD digits: score if frame & 3 != 0, else timer
; The conversion scratch (tmp3-tmp5, conv) is cleared afterwards.
; ---------------------------------------------------------------------------
update_traps:
    ldx lives
    beq :+
    dex
:   stx rest

    lda bonus
    sta tmp3
    lda bonus+1
    sta tmp4
    jsr to_dec5
    ldx #3
@bonus_tile:
    lda conv+1, x           ; the count has at most 4 digits
    ora #'0'
    sta bonus_tiles, x
    dex
    bpl @bonus_tile

    lda frame
    and #$03
    beq @timer
    lda score
    sta tmp3
    lda score+1
    jmp @convert
@timer:
    lda timer
    sta tmp3
    lda timer+1
@convert:
    sta tmp4
    jsr to_dec5
    lda conv                ; digits 5-6 of the buffer: 0 and the ten-thousands
    sta hud_buf
    lda conv+1
    asl a
    asl a
    asl a
    asl a
    ora conv+2
    sta hud_buf+1
    lda conv+3
    asl a
    asl a
    asl a
    asl a
    ora conv+4
    sta hud_buf+2

    lda #$00
    ldx #4
@clear:
    sta conv, x
    dex
    bpl @clear
    sta tmp3
    sta tmp4
    sta tmp5
    rts

; to_dec5: conv[0..4] = decimal digits of tmp4:tmp3 (MSD first), by repeated
; subtraction like update_digits. Destroys tmp3-tmp5.
to_dec5:
    ldx #0
@next_digit:
    ldy #0
@subtract:
    lda tmp3
    sec
    sbc pow10_lo, x
    sta tmp5
    lda tmp4
    sbc pow10_hi, x
    bcc @store
    sta tmp4
    lda tmp5
    sta tmp3
    iny
    bne @subtract           ; always taken
@store:
    sty conv, x
    inx
    cpx #4
    bne @next_digit
    lda tmp3
    sta conv+4
    rts

; ---------------------------------------------------------------------------
; update_backdrop: red in game over, green while A is held, blue otherwise
; ---------------------------------------------------------------------------
update_backdrop:
    lda game_over
    beq :+
    lda #COLOR_GAMEOVER
    bne @store              ; always taken
:   lda #COLOR_PLAYING
    bit buttons
    bpl @store
    lda #COLOR_A_HELD
@store:
    sta backdrop
    rts

; ---------------------------------------------------------------------------
; build_oam: four 8x8 sprites (tiles $01-$04) forming the 16x16 player.
; OAM Y is one less than the first scanline of the sprite.
; ---------------------------------------------------------------------------
build_oam:
    ldy pos_y
    dey                     ; top row OAM Y
    sty oam_shadow+0
    sty oam_shadow+4
    tya
    clc
    adc #8                  ; bottom row OAM Y
    sta oam_shadow+8
    sta oam_shadow+12
    lda #$01
    sta oam_shadow+1
    lda #$02
    sta oam_shadow+5
    lda #$03
    sta oam_shadow+9
    lda #$04
    sta oam_shadow+13
    lda #$00                ; palette 0, in front of background, no flip
    sta oam_shadow+2
    sta oam_shadow+6
    sta oam_shadow+10
    sta oam_shadow+14
    lda pos_x
    sta oam_shadow+3
    sta oam_shadow+11
    clc
    adc #8
    sta oam_shadow+7
    sta oam_shadow+15
    rts

; ---------------------------------------------------------------------------
; Read-only data
; ---------------------------------------------------------------------------
.segment "RODATA"

pow10_lo: .byte <10000, <1000, <100, <10
pow10_hi: .byte >10000, >1000, >100, >10

palette_data:
    ; background palettes ($3F00-$3F0F); only palette 0 is used
    .byte COLOR_PLAYING, COLOR_TEXT, COLOR_TEXT, COLOR_TEXT
    .byte COLOR_PLAYING, COLOR_TEXT, COLOR_TEXT, COLOR_TEXT
    .byte COLOR_PLAYING, COLOR_TEXT, COLOR_TEXT, COLOR_TEXT
    .byte COLOR_PLAYING, COLOR_TEXT, COLOR_TEXT, COLOR_TEXT
    ; sprite palettes ($3F10-$3F1F); $3F10 mirrors $3F00, so it must hold
    ; the backdrop too. Palette 0: yellow, black, white.
    .byte COLOR_PLAYING, $28, $0F, $30
    .byte COLOR_PLAYING, $28, $0F, $30
    .byte COLOR_PLAYING, $28, $0F, $30
    .byte COLOR_PLAYING, $28, $0F, $30

text_score:  .byte "SCORE"
text_lives:  .byte "LIVES"
text_title:  .byte "STUDIO DEMO"
text_bonus:  .byte "BONUS"
text_rest:   .byte "REST"
text_top:    .byte "TOP"
text_messages:
    .byte "           "     ; playing, line 1
    .byte "           "     ; playing, line 2
    .byte " GAME OVER "     ; game over, line 1
    .byte "PRESS START"     ; game over, line 2
.assert * - text_messages = 4 * MSG_LEN, error, "message table size"

; ---------------------------------------------------------------------------
; Vectors
; ---------------------------------------------------------------------------
.segment "VECTORS"
    .word nmi
    .word reset
    .word irq

.include "chr.inc"
