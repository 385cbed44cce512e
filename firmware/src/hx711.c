#include <avr/io.h>
#include <util/delay.h>

#include "hx711.h"

void hx711_init(void)
{
    DDRA = 0;
    DDRC = 0;
    DDRL = 0;
    DDRK &= 0xF0;
    /* pull-ups: a converter missing or unplugged reads "not ready", never a stuck zero */
    PORTA = 0xFF;
    PORTC = 0xFF;
    PORTL = 0xFF;
    PORTK |= 0x0F;
    DDRB |= _BV(HX711_CLOCK_BIT);
    PORTB &= (uint8_t)~_BV(HX711_CLOCK_BIT);
}

uint32_t hx711_ready_mask(void)
{
    uint32_t high = (uint32_t)PINA | (uint32_t)PINC << 8 | (uint32_t)PINL << 16
                    | (uint32_t)(PINK & 0x0F) << 24;
    return ~high & 0x0FFFFFFFUL;
}

uint8_t hx711_all_ready(void)
{
    return hx711_ready_mask() == 0x0FFFFFFFUL;
}

static inline void clock_pulse(void)
{
    /* the clock stays high about 1 us (at most 50 us, or the HX711 powers down; an interrupt
     * taken here adds a few us) */
    PORTB |= _BV(HX711_CLOCK_BIT);
    _delay_us(1);
    PORTB &= (uint8_t)~_BV(HX711_CLOCK_BIT);
    _delay_us(1);
}

void hx711_read(int32_t raw[ZONE_COUNT])
{
    uint8_t bits[24][4];
    for (uint8_t bit = 0; bit < 24; bit++) {
        clock_pulse();
        bits[bit][0] = PINA;
        bits[bit][1] = PINC;
        bits[bit][2] = PINL;
        bits[bit][3] = PINK;
    }
    clock_pulse();  /* the 25th: channel A, gain 128, for the next conversion */

    for (uint8_t zone = 0; zone < ZONE_COUNT; zone++) {
        uint8_t port = zone >> 3, mask = (uint8_t)(1 << (zone & 7));
        uint32_t value = 0;
        for (uint8_t bit = 0; bit < 24; bit++) {
            value <<= 1;
            if (bits[bit][port] & mask) {
                value |= 1;
            }
        }
        if (value & 0x800000UL) {
            value |= 0xFF000000UL;
        }
        raw[zone] = (int32_t)value;
    }
}
