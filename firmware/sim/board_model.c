/* The board around the firmware, for simavr: an ATmega2560 at 16 MHz running the very .hex a
 * builder flashes, 28 HX711 load-cell amplifiers on its ports answering the shared clock with
 * the mass of what lies on their zone, the UART bridged to a pseudo-terminal the host opens as
 * it opens /dev/ttyACM0, and a control channel (this program's stdin and stdout, one command a
 * line) through which a test places, lifts and slides checkers.
 *
 *   board_model FIRMWARE.hex [--seed N] [--noise-mg N] [--drift-mg N] [--gain-spread PERCENT]
 *                            [--hold-calibration 1]
 *
 * Simulated time is paced to wall time (the host's timeouts are wall time); while the firmware
 * sleeps, simavr skips ahead to its next interrupt. The first line out is "pty /dev/pts/N".
 *
 * Commands (each answered by one line, "ok CYCLE" with the cycle it took effect, unless said):
 *   place Z             a checker onto zone Z (the last one lifted, else a new one)
 *   lift Z              the top checker of zone Z into the hand
 *   slide A B           lift from A, brush each point between for SLIDE_DWELL, land on B
 *   press Z GRAMS MS    a hand or a die resting on zone Z for MS milliseconds
 *   drift Z GRAMS       zone Z's plate creeps by GRAMS (the tare moves)
 *   button 1|0          the calibration button pressed (1) or released (0)
 *   unplug Z            zone Z's HX711 loses its wire: its data line stays high
 *   status              "status 0|1": the status LED (PB7) now
 *   counts C1 .. C28    set the whole board at once (new checkers)
 *   zones               "zones C1 .. C28": what lies on each zone
 *   leds                "leds MASK": the zone LEDs the shift registers light
 *   frames              every frame sent since the last `frames`: "frame CYCLE HEX" lines, then "end"
 *   cycle               "cycle N" (16 000 000 a second)
 *   asleep              "asleep N of M": the cycles the CPU has slept (idle, waiting for an interrupt) of all
 *   eeprom ADDR N       "eeprom HEX": N bytes of the chip's EEPROM from ADDR
 *   program ADDR HEX    write the bytes (up to 15) into the EEPROM from ADDR, as avrdude does (the firmware
 *                       reads them at its next power-up: `restart`)
 *   restart MS          the chip's power drops for MS milliseconds (a brown-out, a watchdog's reset):
 *                       a new chip runs the firmware from its start, its EEPROM kept, the checkers
 *                       where they lie, the pseudo-terminal still open (the Mega's USB bridge keeps
 *                       its power); "ok CYCLE" with the cycle the power comes back at
 *   quit
 *
 * Cycles count on across a restart: the model's clock is the first chip's power-up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pty.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "avr_eeprom.h"
#include "avr_ioport.h"
#include "avr_uart.h"
#include "sim_avr.h"
#include "sim_hex.h"
#include "sim_irq.h"
#include "sim_time.h"

#define FREQUENCY 16000000UL
#define ZONES 28
#define MAX_ON_ZONE 64
#define CONVERSION_CYCLES (FREQUENCY / 80)   /* an HX711 at 80 samples/s */
#define COUNTS_PER_GRAM 420.0                /* the firmware's default scale (board.h), +- --gain-spread */
#define CHECKER_GRAMS 14.0
#define CHECKER_TOLERANCE 0.2                /* matched checkers: +-0.2 g (sensing.md) */
#define SLIDE_DWELL_MS 40
/* The HX711's digital filter settles in about 4 conversions at 80 samples/s (50 ms, its data
 * sheet): a sample is the mean of the load over the last four conversion periods. */
#define SETTLING 4
#define MAX_TRANSIENTS 64
#define FRAME_LOG 256
#define MAX_WIRE 1100

typedef struct {
    double masses[MAX_ON_ZONE];
    int count;
    double plate_grams;      /* the plate's own mass: what the tare takes off */
    double drift_grams;
    double settling[SETTLING];  /* the load the converter saw over its last conversions */
    double counts_per_gram;     /* this cell's own scale: cells differ by a few per cent */
} zone_t;

typedef struct {
    int zone;
    double grams;
    avr_cycle_count_t from, until;
} transient_t;

static avr_t *avr;
static avr_cycle_count_t cycle_base;  /* the model's clock when this chip was powered up */
static const char *firmware_path;
static zone_t zones[ZONES];
static double hand[MAX_ON_ZONE];
static int hand_count;
static transient_t transients[MAX_TRANSIENTS];
static int transient_count;
#define MAX_SLIDING 16
static struct { int zone; avr_cycle_count_t at; double grams; } sliding[MAX_SLIDING];
static int sliding_count;
static double noise_grams = 0.05, drift_step_grams = 0.0, gain_spread = 0.0;
static int hold_calibration;
static int button_held;
static avr_irq_t *calibration_button;
static unsigned int rng_state = 1;

/* the converters: one sample of every zone, shifted out MSB first on the clock's rising edges */
static avr_irq_t *data_irq[ZONES];
static uint32_t sample[ZONES];
static int bits_out = -1;    /* -1: no conversion ready (DOUT high) */
static int unplugged[ZONES]; /* a converter whose wire came off: its data line stays high */
static uint32_t led_shift, led_latched;
/* the pins' last levels, for their rising edges (all low on a chip just powered) */
static uint32_t hx711_clock_level, led_clock_level, led_latch_level;

static int pty_master, pty_slave;
static uint8_t to_avr[4096];
static size_t to_avr_length;
static int uart_xon = 1;
static avr_irq_t *uart_input;

static struct { avr_cycle_count_t cycle; uint16_t length; uint8_t bytes[MAX_WIRE]; } frames[FRAME_LOG];
static int frame_head, frame_tail;
static uint8_t wire[MAX_WIRE];
static uint16_t wire_length;

/* The model's clock: the chip's cycles, counting on across restarts. */
static avr_cycle_count_t clock_now(void)
{
    return cycle_base + avr->cycle;
}

static double uniform(void)
{
    return (double)rand_r(&rng_state) / ((double)RAND_MAX + 1.0);
}

static double gaussian(double sigma)
{
    double u = uniform() + 1e-12, v = uniform();
    return sigma * sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

static double new_checker(void)
{
    return CHECKER_GRAMS + (uniform() * 2.0 - 1.0) * CHECKER_TOLERANCE;
}

static double load_grams(int z, avr_cycle_count_t now)
{
    double grams = zones[z].plate_grams + zones[z].drift_grams;
    for (int i = 0; i < zones[z].count; i++) {
        grams += zones[z].masses[i];
    }
    for (int i = 0; i < transient_count; i++) {
        if (transients[i].zone == z && transients[i].from <= now && now < transients[i].until) {
            grams += transients[i].grams;
        }
    }
    return grams;
}

static double sample_grams(int z, avr_cycle_count_t now)
{
    double sum = 0.0;
    memmove(zones[z].settling + 1, zones[z].settling, sizeof zones[z].settling[0] * (SETTLING - 1));
    zones[z].settling[0] = load_grams(z, now);
    for (int i = 0; i < SETTLING; i++) {
        sum += zones[z].settling[i];
    }
    return sum / SETTLING + gaussian(noise_grams);
}

static void put_on(int z, double grams)
{
    if (zones[z].count < MAX_ON_ZONE) {
        zones[z].masses[zones[z].count++] = grams;
    }
}

static void place(int z)
{
    put_on(z, hand_count > 0 ? hand[--hand_count] : new_checker());
}

static void land_on_now(int z);

static int lift(int z)
{
    land_on_now(z);  /* a hand takes a sliding checker up again before it is quite down */
    if (zones[z].count == 0) {
        return 0;
    }
    double grams = zones[z].masses[--zones[z].count];
    if (hand_count < MAX_ON_ZONE) {
        hand[hand_count++] = grams;
    }
    return 1;
}

static void add_transient(int z, double grams, avr_cycle_count_t from, avr_cycle_count_t until)
{
    if (transient_count == MAX_TRANSIENTS) {
        /* the oldest has long ended: transients last milliseconds */
        memmove(transients, transients + 1, sizeof transients[0] * (MAX_TRANSIENTS - 1));
        transient_count--;
    }
    transients[transient_count++] = (transient_t){z, grams, from, until};
}

static void expire_transients(avr_cycle_count_t now)
{
    int kept = 0;
    for (int i = 0; i < transient_count; i++) {
        if (transients[i].until > now) {
            transients[kept++] = transients[i];
        }
    }
    transient_count = kept;
}

static void land_on_now(int z)
{
    int kept = 0;
    for (int i = 0; i < sliding_count; i++) {
        if (sliding[i].zone == z) {
            put_on(z, sliding[i].grams);
        } else {
            sliding[kept++] = sliding[i];
        }
    }
    sliding_count = kept;
}

/* A slid checker lands when its last brush ends: a cycle timer puts down those whose time came. */
static avr_cycle_count_t land_slid(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a;
    (void)param;
    int kept = 0;
    for (int i = 0; i < sliding_count; i++) {
        if (sliding[i].at <= when) {
            put_on(sliding[i].zone, sliding[i].grams);
        } else {
            sliding[kept++] = sliding[i];
        }
    }
    sliding_count = kept;
    return 0;
}

static avr_cycle_count_t conversion_ready(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a;
    (void)param;
    expire_transients(when);
    for (int z = 0; z < ZONES; z++) {
        zones[z].drift_grams += gaussian(drift_step_grams);
        double counts = sample_grams(z, when) * zones[z].counts_per_gram;
        sample[z] = (uint32_t)(int32_t)lround(counts) & 0xFFFFFF;
    }
    /* a conversion finishing mid-read is held until the read ends, as the HX711 does */
    if (bits_out < 0) {
        bits_out = 0;
        for (int z = 0; z < ZONES; z++) {
            avr_raise_irq(data_irq[z], unplugged[z]);
        }
    }
    return when + CONVERSION_CYCLES;
}

static void hx711_clock(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    /* only rising edges shift; simavr also notifies writes to the port that leave the pin as it was */
    uint32_t rising = value && !hx711_clock_level;
    hx711_clock_level = value;
    if (!rising || bits_out < 0) {
        return;
    }
    if (bits_out < 24) {
        int shift = 23 - bits_out;
        for (int z = 0; z < ZONES; z++) {
            avr_raise_irq(data_irq[z], unplugged[z] | ((sample[z] >> shift) & 1));
        }
        bits_out++;
        return;
    }
    bits_out = -1;  /* the 25th clock: gain 128 next, DOUT high until the next conversion */
    for (int z = 0; z < ZONES; z++) {
        avr_raise_irq(data_irq[z], 1);
    }
}

/* The zone LEDs' four 74HC595s: data sampled on the shift clock's rising edge, shown on the latch's. */
static int led_data;
static void led_data_pin(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    led_data = value & 1;
}

static void led_clock_pin(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    if (value && !led_clock_level) {
        led_shift = led_shift << 1 | (uint32_t)led_data;
    }
    led_clock_level = value;
}

static void led_latch_pin(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    if (value && !led_latch_level) {
        led_latched = led_shift;
    }
    led_latch_level = value;
}

static void uart_output(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    uint8_t byte = (uint8_t)value;
    if (write(pty_master, &byte, 1) < 0) {
        /* nobody reads the port and its buffer is full: the byte is lost, as on a real line */
    }
    if (byte != 0) {
        if (wire_length < MAX_WIRE) {
            wire[wire_length++] = byte;
        }
        return;
    }
    if (wire_length > 0) {
        int next = (frame_head + 1) % FRAME_LOG;
        if (next == frame_tail) {
            frame_tail = (frame_tail + 1) % FRAME_LOG;
        }
        frames[frame_head].cycle = clock_now();
        frames[frame_head].length = wire_length;
        memcpy(frames[frame_head].bytes, wire, wire_length);
        frame_head = next;
    }
    wire_length = 0;
}

static void uart_flow(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)value;
    uart_xon = param != NULL;
    (void)irq;
}

static void feed_uart(void)
{
    size_t fed = 0;
    while (fed < to_avr_length && uart_xon) {
        avr_raise_irq(uart_input, to_avr[fed++]);
    }
    memmove(to_avr, to_avr + fed, to_avr_length - fed);
    to_avr_length -= fed;
}

static avr_cycle_count_t slept_cycles;

/* A button to ground holds the pin low against the firmware's pull-up: simavr lets the pull-up
 * win unless the port is told the pin's outside level. */
static void press_button(int pressed)
{
    button_held = pressed;
    avr_ioport_external_t level = {.name = 'E', .mask = 1 << 4, .value = pressed ? 0 : 1 << 4};
    avr_ioctl(avr, AVR_IOCTL_IOPORT_SET_EXTERNAL('E'), &level);
    avr_raise_irq(calibration_button, pressed ? 0 : 1);
}

static void no_sleep(avr_t *a, avr_cycle_count_t how_long)
{
    /* simavr's own sleep waits in real time; the main loop paces instead */
    (void)a;
    slept_cycles += how_long + 1;
}

static void power_up(avr_cycle_count_t at);

#define EEPROM_BYTES 4096  /* the ATmega2560's */

/* Where the chip's EEPROM lies. Asked with no buffer, simavr tells where; asked to copy, it
 * cannot copy the last byte and prints on stdout, which is this model's control channel. */
static uint8_t *chip_eeprom(void)
{
    avr_eeprom_desc_t desc = {.ee = NULL, .offset = 0, .size = 0};
    avr_ioctl(avr, AVR_IOCTL_EEPROM_GET, &desc);
    if (!desc.ee) {
        fprintf(stderr, "board_model: this simavr gives no access to the chip's EEPROM\n");
        exit(2);
    }
    return desc.ee;
}

static int zone_arg(const char *text)
{
    int z = atoi(text);
    return z >= 1 && z <= ZONES ? z - 1 : -1;
}

static void answer(const char *line)
{
    char verb[16] = "";
    char a[32] = "", b[32] = "", c[32] = "";
    sscanf(line, "%15s %31s %31s %31s", verb, a, b, c);
    unsigned long long now = clock_now();
    if (!strcmp(verb, "place") && zone_arg(a) >= 0) {
        place(zone_arg(a));
    } else if (!strcmp(verb, "lift") && zone_arg(a) >= 0) {
        if (!lift(zone_arg(a))) {
            printf("error zone %s is empty\n", a);
            return;
        }
    } else if (!strcmp(verb, "slide") && zone_arg(a) >= 0 && zone_arg(b) >= 0) {
        int from = zone_arg(a), to = zone_arg(b);
        if (sliding_count == MAX_SLIDING) {
            printf("error %d checkers are sliding already\n", MAX_SLIDING);
            return;
        }
        if (!lift(from)) {
            printf("error zone %s is empty\n", a);
            return;
        }
        double grams = hand[--hand_count];
        avr_cycle_count_t at = avr->cycle, dwell = FREQUENCY / 1000 * SLIDE_DWELL_MS;
        if (from < 24 && to < 24) {
            int step = to > from ? 1 : -1;
            for (int z = from + step; z != to; z += step) {
                add_transient(z, grams, at, at + dwell);
                at += dwell;
            }
        }
        sliding[sliding_count].zone = to;
        sliding[sliding_count].grams = grams;
        sliding[sliding_count++].at = at;
        /* simavr keeps one timer per callback and parameter: the landing cycle tells them apart */
        avr_cycle_timer_register(avr, at - avr->cycle + 1, land_slid, (void *)(uintptr_t)at);
        now = cycle_base + at + 1;
    } else if (!strcmp(verb, "press") && zone_arg(a) >= 0) {
        avr_cycle_count_t until = avr->cycle + FREQUENCY / 1000 * (avr_cycle_count_t)atoi(c);
        add_transient(zone_arg(a), atof(b), avr->cycle, until);
    } else if (!strcmp(verb, "drift") && zone_arg(a) >= 0) {
        zones[zone_arg(a)].drift_grams += atof(b);
    } else if (!strcmp(verb, "button")) {
        press_button(atoi(a));
    } else if (!strcmp(verb, "unplug") && zone_arg(a) >= 0) {
        unplugged[zone_arg(a)] = 1;
        avr_raise_irq(data_irq[zone_arg(a)], 1);
    } else if (!strcmp(verb, "counts")) {
        const char *p = line + 6;
        for (int z = 0; z < ZONES; z++) {
            char *end;
            long count = strtol(p, &end, 10);
            if (end == p || count < 0 || count > MAX_ON_ZONE) {
                printf("error counts: 28 numbers from 0 to %d\n", MAX_ON_ZONE);
                return;
            }
            p = end;
            zones[z].count = 0;
            for (long i = 0; i < count; i++) {
                put_on(z, new_checker());
            }
        }
    } else if (!strcmp(verb, "zones")) {
        printf("zones");
        for (int z = 0; z < ZONES; z++) {
            int count = zones[z].count;
            for (int i = 0; i < sliding_count; i++) {
                count += sliding[i].zone == z;
            }
            printf(" %d", count);
        }
        printf("\n");
        return;
    } else if (!strcmp(verb, "leds")) {
        printf("leds %lu\n", (unsigned long)(led_latched & 0x0FFFFFFF));
        return;
    } else if (!strcmp(verb, "frames")) {
        for (; frame_tail != frame_head; frame_tail = (frame_tail + 1) % FRAME_LOG) {
            printf("frame %llu ", (unsigned long long)frames[frame_tail].cycle);
            for (int i = 0; i < frames[frame_tail].length; i++) {
                printf("%02x", frames[frame_tail].bytes[i]);
            }
            printf("\n");
        }
        printf("end\n");
        return;
    } else if (!strcmp(verb, "status")) {
        printf("status %d button %d\n", (avr->data[0x25] >> 7) & 1,  /* PORTB7 */
               !((avr->data[0x2C] >> 4) & 1));                      /* PINE4 low: pressed */
        return;
    } else if (!strcmp(verb, "asleep")) {
        printf("asleep %llu of %llu\n", (unsigned long long)slept_cycles, now);
        return;
    } else if (!strcmp(verb, "cycle")) {
        printf("cycle %llu\n", now);
        return;
    } else if (!strcmp(verb, "eeprom")) {
        long offset = strtol(a, NULL, 0), size = strtol(b, NULL, 0);
        if (offset < 0 || size <= 0 || offset + size > EEPROM_BYTES) {
            printf("error eeprom %s %s: not within the chip's %d bytes of EEPROM\n", a, b, EEPROM_BYTES);
            return;
        }
        const uint8_t *bytes = chip_eeprom() + offset;
        printf("eeprom ");
        for (long i = 0; i < size; i++) {
            printf("%02x", bytes[i]);
        }
        printf("\n");
        return;
    } else if (!strcmp(verb, "program")) {
        long offset = strtol(a, NULL, 0), size = (long)strlen(b) / 2;
        if (offset < 0 || size <= 0 || strlen(b) % 2 || offset + size > EEPROM_BYTES) {
            printf("error program %s %s: hex bytes within the chip's %d bytes of EEPROM\n", a, b, EEPROM_BYTES);
            return;
        }
        uint8_t *bytes = chip_eeprom() + offset;
        for (long i = 0; i < size; i++) {
            unsigned int byte;
            if (sscanf(b + 2 * i, "%2x", &byte) != 1) {
                printf("error program %s %s: not hex\n", a, b);
                return;
            }
            bytes[i] = (uint8_t)byte;
        }
    } else if (!strcmp(verb, "restart") && atoi(a) >= 0) {
        power_up(clock_now() + FREQUENCY / 1000 * (avr_cycle_count_t)atoi(a));
        now = cycle_base;
    } else if (!strcmp(verb, "quit")) {
        exit(0);
    } else {
        printf("error unknown command: %s\n", line);
        return;
    }
    printf("ok %llu\n", now);
}

static void read_commands(void)
{
    static char line[512];
    static size_t length;
    char chunk[512];
    ssize_t got = read(STDIN_FILENO, chunk, sizeof chunk);
    if (got == 0) {
        exit(0);  /* the test that ran us is gone */
    }
    for (ssize_t i = 0; i < got; i++) {
        if (chunk[i] == '\n') {
            line[length] = 0;
            answer(line);
            length = 0;
        } else if (length < sizeof line - 1) {
            line[length++] = chunk[i];
        }
    }
    fflush(stdout);
}

static void read_host(void)
{
    ssize_t got = read(pty_master, to_avr + to_avr_length, sizeof to_avr - to_avr_length);
    if (got > 0) {
        to_avr_length += (size_t)got;
    }
}

static double wall_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void load_hex(const char *path)
{
    ihex_chunk_p chunks = NULL;
    int count = read_ihex_chunks(path, &chunks);
    if (count <= 0) {
        fprintf(stderr, "board_model: cannot read %s as Intel HEX\n", path);
        exit(2);
    }
    for (int i = 0; i < count; i++) {
        avr_loadcode(avr, chunks[i].data, chunks[i].size, chunks[i].baseaddr);
    }
    free_ihex_chunks(chunks);
}

/* A chip powered up at `at` on the model's clock, running the firmware from its start; the one
 * before it (if any) gives it its EEPROM, as the real chip keeps it. What was on the wire to it, or
 * sliding, or pressing for a moment, went with the power. */
static void power_up(avr_cycle_count_t at)
{
    static uint8_t eeprom[EEPROM_BYTES];
    int restarting = avr != NULL;
    if (restarting) {
        memcpy(eeprom, chip_eeprom(), sizeof eeprom);
        land_slid(avr, (avr_cycle_count_t)-1, NULL);
        avr_terminate(avr);
        free(avr);
    }
    avr = avr_make_mcu_by_name("atmega2560");
    if (!avr) {
        fprintf(stderr, "board_model: this simavr has no atmega2560\n");
        exit(2);
    }
    avr_init(avr);
    avr->frequency = FREQUENCY;
    avr->sleep = no_sleep;
    avr->log = LOG_ERROR;
    load_hex(firmware_path);
    if (restarting) {
        memcpy(chip_eeprom(), eeprom, sizeof eeprom);
    }
    cycle_base = at;
    transient_count = 0;
    bits_out = -1;
    hx711_clock_level = led_clock_level = led_latch_level = 0;
    led_shift = led_latched = 0;
    to_avr_length = 0;
    wire_length = 0;
    uart_xon = 1;

    for (int z = 0; z < ZONES; z++) {
        static const char ports[] = "ACLK";
        data_irq[z] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(ports[z / 8]), z % 8);
        avr_raise_irq(data_irq[z], 1);
    }
    /* the calibration button (PE4 to ground), as it is held or not */
    calibration_button = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('E'), 4);
    press_button(button_held);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), 4), hx711_clock, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), 2), led_data_pin, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), 1), led_clock_pin, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), 0), led_latch_pin, NULL);
    avr_cycle_timer_register(avr, CONVERSION_CYCLES, conversion_ready, NULL);

    uint32_t uart_flags = 0;  /* no echo of the line on our stdout (the control channel), no polling naps */
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &uart_flags);
    uart_input = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_output, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), uart_flow, (void *)1);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), uart_flow, NULL);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: board_model FIRMWARE.hex [--seed N] [--noise-mg N] [--drift-mg N] "
                        "[--gain-spread PERCENT] [--hold-calibration 1]\n");
        return 2;
    }
    for (int i = 2; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--seed")) {
            rng_state = (unsigned int)strtoul(argv[i + 1], NULL, 0);
        } else if (!strcmp(argv[i], "--noise-mg")) {
            noise_grams = atof(argv[i + 1]) / 1000.0;
        } else if (!strcmp(argv[i], "--gain-spread")) {
            /* each cell's scale within +-this per cent of the firmware's default */
            gain_spread = atof(argv[i + 1]) / 100.0;
        } else if (!strcmp(argv[i], "--hold-calibration")) {
            hold_calibration = atoi(argv[i + 1]);
        } else if (!strcmp(argv[i], "--drift-mg")) {
            /* the plate's random walk per sample, in mg */
            drift_step_grams = atof(argv[i + 1]) / 1000.0;
        } else {
            fprintf(stderr, "board_model: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    firmware_path = argv[1];
    for (int z = 0; z < ZONES; z++) {
        zones[z].plate_grams = 40.0 + 40.0 * uniform();
        zones[z].counts_per_gram = COUNTS_PER_GRAM * (1.0 + gain_spread * (uniform() * 2.0 - 1.0));
        for (int i = 0; i < SETTLING; i++) {
            zones[z].settling[i] = zones[z].plate_grams;
        }
    }
    button_held = hold_calibration;  /* held at the first power-up only when asked */
    power_up(0);

    if (openpty(&pty_master, &pty_slave, NULL, NULL, NULL) < 0) {
        perror("board_model: openpty");
        return 2;
    }
    struct termios raw;
    tcgetattr(pty_slave, &raw);
    cfmakeraw(&raw);
    tcsetattr(pty_slave, TCSANOW, &raw);
    fcntl(pty_master, F_SETFL, O_NONBLOCK);
    fcntl(STDIN_FILENO, F_SETFL, O_NONBLOCK);
    printf("pty %s\n", ttyname(pty_slave));
    fflush(stdout);

    double start = wall_seconds();
    for (;;) {
        /* run up to where wall time is, a millisecond of chip time at most between looks outside */
        avr_cycle_count_t target = (avr_cycle_count_t)((wall_seconds() - start) * FREQUENCY);
        avr_cycle_count_t slice = clock_now() + FREQUENCY / 1000;
        if (target > slice) {
            target = slice;
        }
        while (clock_now() < target) {
            int state = avr_run(avr);
            if (state == cpu_Done || state == cpu_Crashed) {
                fprintf(stderr, "board_model: the firmware stopped (state %d) at cycle %llu\n", state,
                        (unsigned long long)clock_now());
                return 1;
            }
        }
        struct pollfd fds[2] = {{pty_master, POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
        int timeout = clock_now() >= (avr_cycle_count_t)((wall_seconds() - start) * FREQUENCY) ? 1 : 0;
        if (poll(fds, 2, timeout) > 0) {
            if (fds[0].revents & POLLIN) {
                read_host();
            }
            if (fds[1].revents & (POLLIN | POLLHUP)) {
                read_commands();
            }
        }
        feed_uart();
    }
}
