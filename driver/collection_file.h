/* SPDX-License-Identifier: GPL-2.0-only */
/* /sys/kernel/debug/aca/collection (collection_file.c). */
#ifndef ACA_COLLECTION_FILE_H
#define ACA_COLLECTION_FILE_H

struct aca_collection;

void aca_collection_file_init(struct aca_collection *coll);
void aca_collection_file_exit(struct aca_collection *coll);

#endif /* ACA_COLLECTION_FILE_H */
