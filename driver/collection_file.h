/* SPDX-License-Identifier: GPL-2.0-only */
/* /sys/module/aca/collection (collection_file.c). */
#ifndef ACA_COLLECTION_FILE_H
#define ACA_COLLECTION_FILE_H

int aca_collection_file_init(void);
void aca_collection_file_exit(void);

#endif /* ACA_COLLECTION_FILE_H */
