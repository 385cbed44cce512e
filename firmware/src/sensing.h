/* From raw HX711 samples to checker counts, as hardware_docs/sensing.md describes: a tare taken
 * at power-up, each sample's mass rounded to 14 g checkers, a new count reported only once two
 * scans in a row agree, and a re-tare (on the mean of the last two samples) near zero. Plain C: no AVR header. */
#ifndef SENSING_H
#define SENSING_H

#include <stdint.h>
#include "board.h"

typedef struct {
    int32_t tare;             /* raw counts of the empty plate */
    int32_t kept_tare;        /* the tare as EEPROM keeps it, for a restart with checkers on the zone */
    int32_t previous_sample;
    uint16_t counts_per_gram;
    uint8_t count;            /* the debounced count: what the host is told */
    uint8_t candidate;        /* the count of the last scan, not yet held for two */
    uint16_t still_scans;     /* scans the raw count has stayed at zero, for the re-tare */
} zone_sense_t;

void sensing_init(zone_sense_t *zone, uint16_t counts_per_gram);
/* Sets the tare from the mean of power-up samples (the sum of `samples` raw readings). */
void sensing_tare(zone_sense_t *zone, int32_t sum, uint8_t samples);
/* The tare at power-up, from the mean of `samples` raw readings (their sum) and the tare EEPROM
 * kept (`kept`, if `have_kept`): a zone half a checker or more above the kept tare has checkers on
 * it (the board restarted mid-game), so the kept tare stays; otherwise the plate is tared as it
 * reads. The zone's count is then what the samples weigh (the first SNAPSHOT's). Returns 1 when
 * the tare is one to keep (none was kept, or it moved past KEEP_TARE_GRAMS). */
uint8_t sensing_power_up(zone_sense_t *zone, int32_t sum, uint8_t samples, int32_t kept, uint8_t have_kept);
/* Whether a re-tare has moved the tare past KEEP_TARE_GRAMS from the one kept; if so, it becomes
 * the one kept (the caller writes it to EEPROM). */
uint8_t sensing_tare_moved(zone_sense_t *zone);
/* One new sample; returns 1 when the debounced count changed (a ZONE_CHANGE to send). */
uint8_t sensing_sample(zone_sense_t *zone, int32_t raw);
/* The mass in milligrams the zone's last two samples show above its tare. */
int32_t sensing_milligrams(const zone_sense_t *zone, int32_t raw);

#endif
