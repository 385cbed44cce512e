#include <avr/io.h>

#include "board.h"
#include "leds.h"

void leds_init(void)
{
    DDRB |= _BV(LED_DATA_BIT) | _BV(LED_CLOCK_BIT) | _BV(LED_LATCH_BIT) | _BV(STATUS_LED_BIT);
    leds_set_zones(0);
}

void leds_set_zones(uint32_t mask)
{
    /* zone 28 first: after 32 clocks zone 1's bit sits in the first register's output QA */
    for (int8_t bit = 31; bit >= 0; bit--) {
        if (mask & (1UL << bit)) {
            PORTB |= _BV(LED_DATA_BIT);
        } else {
            PORTB &= (uint8_t)~_BV(LED_DATA_BIT);
        }
        PORTB |= _BV(LED_CLOCK_BIT);
        PORTB &= (uint8_t)~_BV(LED_CLOCK_BIT);
    }
    PORTB |= _BV(LED_LATCH_BIT);
    PORTB &= (uint8_t)~_BV(LED_LATCH_BIT);
}

void leds_status(uint8_t on)
{
    if (on) {
        PORTB |= _BV(STATUS_LED_BIT);
    } else {
        PORTB &= (uint8_t)~_BV(STATUS_LED_BIT);
    }
}
