/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kma-tracecmd.h - the functions and types of libtracecmd 1.3.1 that
 * libtracecmd.so.1 exports but only trace-cmd's private header
 * (lib/trace-cmd/include/private/trace-cmd-private.h) declares, and Debian
 * does not ship that header. Declared once here, as in 1.3.1 (unchanged up
 * to 1.5), for the reader's files.
 */
#ifndef KMA_TRACECMD_H
#define KMA_TRACECMD_H

#include <stdbool.h>
#include <sys/types.h>

struct tep_handle;
struct tep_record;
struct tracecmd_input;
struct tracecmd_compression;
struct tracecmd_msg_handle;

/* the input handle */
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
const char *tracecmd_get_uname(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);
int tracecmd_long_size(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
struct tep_record *tracecmd_read_cpu_last(struct tracecmd_input *handle, int cpu);
struct tep_record *tracecmd_read_cpu_first(struct tracecmd_input *handle, int cpu);
/* the next record of @cpu without consuming it; owned by the handle */
struct tep_record *tracecmd_peek_data(struct tracecmd_input *handle, int cpu);
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle,
				     const char **name, const char **version);

/*
 * Codecs. tracecmd_uncompress_block() read()s "u32 compressed size, u32
 * size, data" at the fd's current offset (numbers decoded with @tep's file
 * endianness) into the handle's buffer. tracecmd_load_chunks_info() reads
 * the chunk index (u32 count; u32 csize, u32 size, data per chunk) from the
 * fd's current offset, which it leaves there; tracecmd_uncompress_chunk()
 * inflates one chunk into @data (chunk->size bytes).
 */
struct tracecmd_compression_proto {
	int weight;
	const char *name;
	const char *version;
	int (*compress)(void *ctx, const void *in, int in_bytes, void *out, int out_bytes);
	int (*uncompress)(void *ctx, const void *in, int in_bytes, void *out, int out_bytes);
	unsigned int (*compress_size)(void *ctx, unsigned int bytes);
	bool (*is_supported)(const char *name, const char *version);
	void *(*new_context)(void);
	void (*free_context)(void *ctx);
};

struct tracecmd_compress_chunk {
	unsigned int	size;
	unsigned int	zsize;
	off_t		zoffset;
	off_t		offset;
};

int tracecmd_compress_proto_register(struct tracecmd_compression_proto *proto);
bool tracecmd_compress_is_supported(const char *name, const char *version);
struct tracecmd_compression *tracecmd_compress_alloc(const char *name, const char *version,
						     int fd, struct tep_handle *tep,
						     struct tracecmd_msg_handle *msg_handle);
void tracecmd_compress_destroy(struct tracecmd_compression *handle);
int tracecmd_uncompress_block(struct tracecmd_compression *handle);
int tracecmd_compress_buffer_read(struct tracecmd_compression *handle, char *dst, int len);
int tracecmd_load_chunks_info(struct tracecmd_compression *handle,
			      struct tracecmd_compress_chunk **chunks_info);
int tracecmd_uncompress_chunk(struct tracecmd_compression *handle,
			      struct tracecmd_compress_chunk *chunk, char *data);

#endif /* KMA_TRACECMD_H */
