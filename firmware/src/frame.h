/* Framing of hardware_docs/protocol.md: CRC-32, COBS, and the frame body. Plain C with no AVR
 * header, so the same file is compiled for the host and tested against drivers/protocol.py. */
#ifndef FRAME_H
#define FRAME_H

#include <stdint.h>

#define PROTOCOL_VERSION 1
#define FRAME_HEADER_SIZE 5
#define FRAME_CRC_SIZE 4
#define FRAME_MAX_PAYLOAD 1024
/* COBS adds one byte per 254 and one more; the wire adds a delimiter before and after. */
#define COBS_MAX(n) ((n) + (n) / 254 + 1)
#define FRAME_BODY_MAX(payload) (FRAME_HEADER_SIZE + (payload) + FRAME_CRC_SIZE)
#define FRAME_WIRE_MAX(payload) (COBS_MAX(FRAME_HEADER_SIZE + (payload) + FRAME_CRC_SIZE) + 2)

typedef struct {
    uint8_t version;
    uint8_t seq;
    uint8_t type;
    uint16_t length;
    const uint8_t *payload; /* points into the buffer the piece was decoded in */
} frame_t;

typedef enum {
    FRAME_OK = 0,
    FRAME_GARBAGE, /* no 5-byte header, a length over 1024, or longer than its length */
    FRAME_CUT,     /* a plausible header but fewer bytes than it says */
    FRAME_BAD_CRC,
} frame_status_t;

/* zlib's crc32: reflected, polynomial 0x04C11DB7, init and xorout 0xFFFFFFFF. */
uint32_t crc32_update(uint32_t crc, const uint8_t *data, uint16_t length);
uint32_t crc32(const uint8_t *data, uint16_t length);

/* Canonical COBS; `out` holds COBS_MAX(length) bytes. Returns the encoded length. */
uint16_t cobs_encode(const uint8_t *in, uint16_t length, uint8_t *out);
/* Decodes in place; returns the decoded length. `complete` is 0 when a code runs past the end
 * (a piece cut short), and what follows that code is then kept undecoded, as the host does. */
uint16_t cobs_decode_in_place(uint8_t *data, uint16_t length, uint8_t *complete);

/* The whole frame on the wire, both delimiters included: `body` (scratch) holds
 * FRAME_BODY_MAX(length) bytes, `wire` FRAME_WIRE_MAX(length). Returns the wire length. */
uint16_t frame_encode(uint8_t seq, uint8_t type, const uint8_t *payload, uint16_t length,
                      uint8_t *body, uint8_t *wire);

/* Judges one piece read between two delimiters (decoded in place), as the host's reader does. */
frame_status_t frame_decode(uint8_t *piece, uint16_t length, frame_t *frame);

#endif
