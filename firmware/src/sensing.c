#include "sensing.h"

void sensing_init(zone_sense_t *zone, uint16_t counts_per_gram)
{
    zone->tare = 0;
    zone->kept_tare = 0;
    zone->previous_sample = 0;
    zone->counts_per_gram = counts_per_gram;
    zone->count = zone->candidate = 0;
    zone->still_scans = 0;
}

void sensing_tare(zone_sense_t *zone, int32_t sum, uint8_t samples)
{
    zone->tare = sum / samples;
    zone->kept_tare = zone->tare;
    zone->previous_sample = zone->tare;
}

static int32_t keep_window(const zone_sense_t *zone)
{
    return (int32_t)zone->counts_per_gram * KEEP_TARE_GRAMS;
}

/* The checkers `net` raw counts over the tare weigh, rounded: 0 below half a checker. In the
 * converter's own units: no division for an empty zone (most of them), one for the others; 28
 * zones 80 times a second leave the CPU asleep most of the time. */
static uint8_t checkers_in(const zone_sense_t *zone, int32_t net)
{
    int32_t checker = (int32_t)zone->counts_per_gram * (CHECKER_MILLIGRAMS / 1000);
    if (net < checker >> 1) {
        return 0;
    }
    int32_t checkers = (net + (checker >> 1)) / checker;
    return checkers > 255 ? 255 : (uint8_t)checkers;
}

uint8_t sensing_power_up(zone_sense_t *zone, int32_t sum, uint8_t samples, int32_t kept, uint8_t have_kept)
{
    sensing_tare(zone, sum, samples);
    if (!have_kept) {
        return 1;
    }
    uint8_t on_it = checkers_in(zone, zone->tare - kept);
    if (on_it) {
        /* counted already, so that the first SNAPSHOT tells them, not an empty zone */
        zone->count = zone->candidate = on_it;
        zone->tare = zone->kept_tare = kept;
        return 0;
    }
    zone->kept_tare = kept;
    return sensing_tare_moved(zone);
}

uint8_t sensing_tare_moved(zone_sense_t *zone)
{
    int32_t moved = zone->tare - zone->kept_tare;
    if (moved <= keep_window(zone) && moved >= -keep_window(zone)) {
        return 0;
    }
    zone->kept_tare = zone->tare;
    return 1;
}

int32_t sensing_milligrams(const zone_sense_t *zone, int32_t raw)
{
    /* the mean of two samples, halved after the sum: 24-bit readings cannot overflow it */
    int32_t net = (raw + zone->previous_sample) / 2 - zone->tare;
    return net * 1000L / zone->counts_per_gram;
}

uint8_t sensing_sample(zone_sense_t *zone, int32_t raw)
{
    /* each sample is rounded on its own: a mean over samples would make a one-sample knock
     * last two scans, and pass the debounce (the noise, a tenth of a gram, needs no mean) */
    uint8_t count = checkers_in(zone, raw - zone->tare);
    int32_t mean = (raw + zone->previous_sample) / 2 - zone->tare;
    int32_t step = raw - zone->previous_sample;
    zone->previous_sample = raw;

    /* near zero, or below it (a plate cannot weigh less than empty: its tare was taken with
     * something on it, since lifted), and still */
    int32_t window = (int32_t)zone->counts_per_gram * RETARE_HALF_GRAMS >> 1;
    if (count == 0 && mean < window && step < window && step > -window) {
        if (++zone->still_scans >= RETARE_SCANS) {
            /* empty and still for 10 s: whatever it reads now is the plate (drift, creep) */
            zone->tare += mean;
            zone->still_scans = 0;
        }
    } else {
        zone->still_scans = 0;
    }

    uint8_t held = count == zone->candidate;
    zone->candidate = count;
    if (held && count != zone->count) {
        zone->count = count;
        return 1;
    }
    return 0;
}
