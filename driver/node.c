// SPDX-License-Identifier: GPL-2.0-only
/*
 * The /dev/aca node: a character device of aca's own class "aca".
 *
 * Not a misc device, because of the group parameter: devtmpfs takes a node's
 * owner only from its device type's devnode() callback, which it calls while
 * the device is added, and misc_register() adds its device with no way to
 * give it a type first. With a device of our own, the type is set before
 * cdev_device_add(), so the node is born with mode 0660 and the parameter's
 * group, race-free. udev rules can still change it (SUBSYSTEM=="aca").
 */
#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uidgid.h>

#include "node.h"
#include "params.h"

struct aca_node {
	struct device dev;	/* owns the structure (release) */
	struct cdev cdev;	/* holds a reference to dev while in use */
};

static struct class aca_class = {
	.name = "aca",
};

static dev_t aca_devt;
static struct aca_node *aca_node;

/* devtmpfs asks at creation (all pointers set) and at removal (all NULL). */
#ifdef ACA_HAVE_CONST_DEVNODE
static char *aca_devnode(const struct device *dev, umode_t *mode,
			 kuid_t *uid, kgid_t *gid)
#else
static char *aca_devnode(struct device *dev, umode_t *mode,
			 kuid_t *uid, kgid_t *gid)
#endif
{
	if (mode)
		*mode = 0660;
	if (gid)
		*gid = make_kgid(&init_user_ns, aca_group);
	return NULL;	/* the name stays "aca" */
}

static const struct device_type aca_type = {
	.name = "aca",
	.devnode = aca_devnode,
};

static void aca_node_release(struct device *dev)
{
	kfree(container_of(dev, struct aca_node, dev));
}

int aca_node_add(const struct file_operations *fops)
{
	struct aca_node *node;
	int ret;

	ret = alloc_chrdev_region(&aca_devt, 0, 1, "aca");
	if (ret)
		return ret;
	ret = class_register(&aca_class);
	if (ret)
		goto out_region;
	node = kzalloc(sizeof(*node), GFP_KERNEL);
	if (!node) {
		ret = -ENOMEM;
		goto out_class;
	}
	device_initialize(&node->dev);
	node->dev.class = &aca_class;
	node->dev.type = &aca_type;
	node->dev.devt = aca_devt;
	node->dev.release = aca_node_release;
	cdev_init(&node->cdev, fops);
	node->cdev.owner = fops->owner;
	ret = dev_set_name(&node->dev, "aca");
	if (!ret)
		ret = cdev_device_add(&node->cdev, &node->dev);
	if (ret) {
		put_device(&node->dev);
		goto out_class;
	}
	aca_node = node;
	return 0;

out_class:
	class_unregister(&aca_class);
out_region:
	unregister_chrdev_region(aca_devt, 1);
	return ret;
}

void aca_node_del(void)
{
	cdev_device_del(&aca_node->cdev, &aca_node->dev);
	put_device(&aca_node->dev);
	aca_node = NULL;
	class_unregister(&aca_class);
	unregister_chrdev_region(aca_devt, 1);
}
