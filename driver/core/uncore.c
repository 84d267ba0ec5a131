// SPDX-License-Identifier: GPL-2.0-only
/*
 * Uncore ECBs (spec 5.5, 6.1-6.4) translated to the target's own uncore
 * perf PMUs, the ones Linux registers as uncore_<box>[_<n>].
 *
 * A SEP host programs an uncore box by register: each READ slot is a
 * counter, the WRITE slots the event selects and filters it needs (spec
 * 6.2). Which box and counter a register is comes from the model's
 * register map below (facts from Intel's uncore guides, as Linux's
 * uncore_snbep.c uses them). The event select itself needs no map: Linux's
 * Intel uncore PMUs write perf's config into the select as it is, so an
 * event's config is the select's value without the bits perf owns
 * (enable, overflow, reset), and config1 the box filter registers, low
 * half then high. Which bits a PMU takes comes from its format files,
 * read on the target at run time (ops->find_pmu); a select or filter
 * with a bit none of them names is refused, not cut short.
 *
 * aca never writes an uncore register: box and global controls, which
 * perf programs itself, are left out; registers of no counter read are
 * ignored. PCI boxes are named by device and function; the bus, which
 * differs per package, is not looked at: an uncore event counts on every
 * die (driver/uncore.c: a counter per die, on its first online CPU).
 */
#include "internal.h"

/* Event select bits perf owns in every Intel uncore box. */
#define UNC_CTL_RST		BIT_ULL(17)
#define UNC_CTL_OV_EN		BIT_ULL(20)
#define UNC_CTL_EN		BIT_ULL(22)
#define UNC_CTL_PERF_OWNED	(UNC_CTL_RST | UNC_CTL_OV_EN | UNC_CTL_EN)
/* perf's pseudo event select for a box's fixed counter (event=0xff). */
#define UNC_FIXED_EVENT		0xffull

struct unc_box {
	const char *name;	/* perf's: uncore_<name>, _<n> if several */
	u8 prog;		/* SEP_REG_PROG_MSR or SEP_REG_PROG_PCI */
	u8 nboxes, ncounters;
	u8 ctl_step, ctr_step;	/* from one counter's registers to the next */
	u16 box_step;		/* MSR boxes: from one box's registers to the next */
	u32 ctl0, ctr0;		/* box 0, counter 0: MSR address or PCI offset */
	u32 fixed_ctr;		/* 0: no fixed counter (its select perf programs) */
	u32 filter0, filter1;	/* config1 bits 31:0 and 63:32; 0: none */
	const u8 (*devfn)[2];	/* PCI boxes: device, function of box n */
	/* Counter k's select and counter where they are not evenly spaced; NULL: they are. */
	const u16 *ctl_at, *ctr_at;
};

/* A PCI filter register range (device, function, first and last offset) perf is not given. */
struct unc_unpassed {
	u8 dev, func;
	u16 first, last;
	const char *what;
};

struct unc_model {
	u32 family, model;
	const char *name;
	const struct unc_box *boxes;
	u32 nboxes;
	const char *probe;	/* a PMU every such target has */
	const struct unc_unpassed *unpassed;
	u32 nunpassed;
};

/* Skylake-SP, Cascade Lake-SP, Cooper Lake (model 0x55). */
static const u8 skx_imc_devfn[][2] = {
	{ 10, 2 }, { 10, 6 }, { 11, 2 }, { 12, 2 }, { 12, 6 }, { 13, 2 },
};

static const u8 skx_m2m_devfn[][2] = { { 8, 0 }, { 9, 0 } };
static const u8 skx_upi_devfn[][2] = { { 14, 0 }, { 15, 0 }, { 16, 0 } };
static const u8 skx_m2pcie_devfn[][2] = { { 21, 1 }, { 22, 1 }, { 23, 1 }, { 21, 5 } };
static const u8 skx_m3upi_devfn[][2] = { { 18, 1 }, { 18, 2 }, { 18, 5 } };

/* An MSR box: @n boxes @step apart, counter k's select at ctl0 + k, its counter at ctr0 + k. */
#define MSR_BOX(_name, _n, _ctrs, _step, _ctl0, _ctr0) \
	.name = (_name), .prog = SEP_REG_PROG_MSR, .nboxes = (_n), .ncounters = (_ctrs), \
	.ctl_step = 1, .ctr_step = 1, .box_step = (_step), .ctl0 = (_ctl0), .ctr0 = (_ctr0)
/*
 * A PCI box per device and function (@devfn, @n of them); counter k's
 * select at ctl0 + k * ctl_step, its counter at ctr0 + 8k.
 */
#define PCI_BOX(_name, _ctrs, _ctl_step, _ctl0, _ctr0, _devfn, _n) \
	.name = (_name), .prog = SEP_REG_PROG_PCI, .nboxes = (_n), \
	.ncounters = (_ctrs), .ctl_step = (_ctl_step), .ctr_step = 8, .ctl0 = (_ctl0), \
	.ctr0 = (_ctr0), .devfn = (_devfn)

static const struct unc_box skx_boxes[] = {
	{ MSR_BOX("ubox", 1, 2, 0, 0x705, 0x709), .fixed_ctr = 0x704 },
	{ MSR_BOX("cha", 28, 4, 0x10, 0xe01, 0xe08), .filter0 = 0xe05, .filter1 = 0xe06 },
	{ MSR_BOX("iio", 6, 4, 0x20, 0xa48, 0xa41) },
	{ MSR_BOX("irp", 6, 2, 0x20, 0xa5b, 0xa59) },
	{ MSR_BOX("pcu", 1, 4, 0, 0x711, 0x717), .filter0 = 0x715 },
	{ PCI_BOX("imc", 4, 4, 0xd8, 0xa0, skx_imc_devfn, ARRAY_SIZE(skx_imc_devfn)),
	  .fixed_ctr = 0xd0 },
	{ PCI_BOX("m2m", 4, 8, 0x228, 0x200, skx_m2m_devfn, ARRAY_SIZE(skx_m2m_devfn)) },
	{ PCI_BOX("upi", 4, 8, 0x350, 0x318, skx_upi_devfn, ARRAY_SIZE(skx_upi_devfn)) },
	{ PCI_BOX("m2pcie", 4, 4, 0xd8, 0xa0, skx_m2pcie_devfn, ARRAY_SIZE(skx_m2pcie_devfn)) },
	{ PCI_BOX("m3upi", 3, 4, 0xd8, 0xa0, skx_m3upi_devfn, ARRAY_SIZE(skx_m3upi_devfn)) },
};

/*
 * Sandy Bridge-EP, Xeon E5-2600 and E5-4600 (model 0x2d): the uncore
 * PMON guide's (327043) boxes as Linux registers them. PCI boxes: HA
 * 14.1; iMC channels 16.0, 16.1, 16.4, 16.5; QPI ports 8.2, 9.2; R2PCIe
 * 19.1; R3QPI links 19.5, 19.6. Linux has no PMU for the IRP (perf's
 * jaketown tables list its events): its registers are no counter here.
 */
static const u8 snbep_ha_devfn[][2] = { { 14, 1 } };
static const u8 snbep_imc_devfn[][2] = { { 16, 0 }, { 16, 1 }, { 16, 4 }, { 16, 5 } };
static const u8 snbep_qpi_devfn[][2] = { { 8, 2 }, { 9, 2 } };
static const u8 snbep_r2pcie_devfn[][2] = { { 19, 1 } };
static const u8 snbep_r3qpi_devfn[][2] = { { 19, 5 }, { 19, 6 } };

static const struct unc_box snbep_boxes[] = {
	{ MSR_BOX("ubox", 1, 2, 0, 0xc10, 0xc16), .fixed_ctr = 0xc09 },
	{ MSR_BOX("cbox", 8, 4, 0x20, 0xd10, 0xd16), .filter0 = 0xd14 },
	{ MSR_BOX("pcu", 1, 4, 0, 0xc30, 0xc36), .filter0 = 0xc34 },
	{ PCI_BOX("ha", 4, 4, 0xd8, 0xa0, snbep_ha_devfn, ARRAY_SIZE(snbep_ha_devfn)) },
	{ PCI_BOX("imc", 4, 4, 0xd8, 0xa0, snbep_imc_devfn, ARRAY_SIZE(snbep_imc_devfn)),
	  .fixed_ctr = 0xd0 },
	{ PCI_BOX("qpi", 4, 4, 0xd8, 0xa0, snbep_qpi_devfn, ARRAY_SIZE(snbep_qpi_devfn)) },
	{ PCI_BOX("r2pcie", 4, 4, 0xd8, 0xa0, snbep_r2pcie_devfn,
		  ARRAY_SIZE(snbep_r2pcie_devfn)) },
	{ PCI_BOX("r3qpi", 3, 4, 0xd8, 0xa0, snbep_r3qpi_devfn, ARRAY_SIZE(snbep_r3qpi_devfn)) },
};

/*
 * Filters aca cannot pass to perf: written nonzero, they refuse the ECB
 * rather than count unfiltered. The QPI packet match and mask (PCI 8.6
 * and 9.6, 0x228-0x23f) are perf's config1 and config2 for event 0x38,
 * and aca sets no config2; Linux programs no HA address or opcode match
 * (14.1, 0x40-0x4b) on Sandy Bridge-EP.
 */
static const struct unc_unpassed snbep_unpassed[] = {
	{ 8, 6, 0x228, 0x23f, "QPI packet match/mask (perf's config2)" },
	{ 9, 6, 0x228, 0x23f, "QPI packet match/mask (perf's config2)" },
	{ 14, 1, 0x40, 0x4b, "HA address/opcode match (Linux programs none)" },
};

/*
 * Ivy Bridge-EP, Xeon E5-2600 v2 and E5-4600 v2 (model 0x3e): the v2
 * uncore guide's (329468) boxes as Linux registers them. The MSR boxes
 * are Sandy Bridge-EP's, with up to 15 CBos whose filter is two
 * registers (config1 bits 31:0 at 0xd14, 63:32 at 0xd1a, 0x20 apart per
 * CBo). PCI boxes: HA 14.1, 28.1; iMC channels 16.4, 16.5, 16.0, 16.1
 * (memory controller 0) and 30.4, 30.5, 30.0, 30.1 (1); IRP 5.6, whose
 * counters are not evenly spaced; QPI ports 8.2, 9.2, 24.2; R2PCIe 19.1;
 * R3QPI links 19.5, 19.6, 18.5.
 */
static const u8 ivbep_ha_devfn[][2] = { { 14, 1 }, { 28, 1 } };
static const u8 ivbep_imc_devfn[][2] = {
	{ 16, 4 }, { 16, 5 }, { 16, 0 }, { 16, 1 }, { 30, 4 }, { 30, 5 }, { 30, 0 }, { 30, 1 },
};

static const u8 ivbep_irp_devfn[][2] = { { 5, 6 } };
static const u16 ivbep_irp_ctl[] = { 0xd8, 0xdc, 0xe0, 0xe4 };
static const u16 ivbep_irp_ctr[] = { 0xa0, 0xb0, 0xb8, 0xc0 };
static const u8 ivbep_qpi_devfn[][2] = { { 8, 2 }, { 9, 2 }, { 24, 2 } };
static const u8 ivbep_r3qpi_devfn[][2] = { { 19, 5 }, { 19, 6 }, { 18, 5 } };

static const struct unc_box ivbep_boxes[] = {
	{ MSR_BOX("ubox", 1, 2, 0, 0xc10, 0xc16), .fixed_ctr = 0xc09 },
	{ MSR_BOX("cbox", 15, 4, 0x20, 0xd10, 0xd16), .filter0 = 0xd14, .filter1 = 0xd1a },
	{ MSR_BOX("pcu", 1, 4, 0, 0xc30, 0xc36), .filter0 = 0xc34 },
	{ PCI_BOX("ha", 4, 4, 0xd8, 0xa0, ivbep_ha_devfn, ARRAY_SIZE(ivbep_ha_devfn)) },
	{ PCI_BOX("imc", 4, 4, 0xd8, 0xa0, ivbep_imc_devfn, ARRAY_SIZE(ivbep_imc_devfn)),
	  .fixed_ctr = 0xd0 },
	{ PCI_BOX("irp", 4, 4, 0xd8, 0xa0, ivbep_irp_devfn, ARRAY_SIZE(ivbep_irp_devfn)),
	  .ctl_at = ivbep_irp_ctl, .ctr_at = ivbep_irp_ctr },
	{ PCI_BOX("qpi", 4, 4, 0xd8, 0xa0, ivbep_qpi_devfn, ARRAY_SIZE(ivbep_qpi_devfn)) },
	{ PCI_BOX("r2pcie", 4, 4, 0xd8, 0xa0, snbep_r2pcie_devfn,
		  ARRAY_SIZE(snbep_r2pcie_devfn)) },
	{ PCI_BOX("r3qpi", 3, 4, 0xd8, 0xa0, ivbep_r3qpi_devfn, ARRAY_SIZE(ivbep_r3qpi_devfn)) },
};

/* As on Sandy Bridge-EP, for each QPI port's match/mask device and each HA. */
static const struct unc_unpassed ivbep_unpassed[] = {
	{ 8, 6, 0x228, 0x23f, "QPI packet match/mask (perf's config2)" },
	{ 9, 6, 0x228, 0x23f, "QPI packet match/mask (perf's config2)" },
	{ 24, 6, 0x228, 0x23f, "QPI packet match/mask (perf's config2)" },
	{ 14, 1, 0x40, 0x4b, "HA address/opcode match (Linux programs none)" },
	{ 28, 1, 0x40, 0x4b, "HA address/opcode match (Linux programs none)" },
};

/*
 * Haswell-EP, Xeon E5-2600 v3 and E5-4600 v3 (model 0x3f): MSR boxes at
 * Skylake-SP's addresses (ubox 0x705/0x709, fixed 0x704, filter 0x707;
 * up to 18 CBos 0x10 apart from 0xe01/0xe08, filters 0xe05 low and 0xe06
 * high; PCU 0x711/0x717, filter 0x715) and four SBoxes 0xa apart from
 * 0x721/0x726. PCI boxes: HA 18.1, 18.5; iMC channels 21.0, 21.1, 20.0,
 * 20.1 (memory controller 0) and 24.0, 24.1, 23.0, 23.1 (1), in Linux's
 * order of their device IDs; IRP 5.6, counters 8 apart from 0xa0 but
 * selects Ivy Bridge-EP's; QPI ports 8.2, 9.2, 10.2; R2PCIe 16.1; R3QPI
 * links 11.1, 11.2, 11.5.
 */
static const u8 hswep_ha_devfn[][2] = { { 18, 1 }, { 18, 5 } };
static const u8 hswep_imc_devfn[][2] = {
	{ 21, 0 }, { 21, 1 }, { 20, 0 }, { 20, 1 }, { 24, 0 }, { 24, 1 }, { 23, 0 }, { 23, 1 },
};

static const u8 hswep_qpi_devfn[][2] = { { 8, 2 }, { 9, 2 }, { 10, 2 } };
static const u8 hswep_r2pcie_devfn[][2] = { { 16, 1 } };
static const u8 hswep_r3qpi_devfn[][2] = { { 11, 1 }, { 11, 2 }, { 11, 5 } };

static const struct unc_box hswep_boxes[] = {
	{ MSR_BOX("ubox", 1, 2, 0, 0x705, 0x709), .fixed_ctr = 0x704, .filter0 = 0x707 },
	{ MSR_BOX("cbox", 18, 4, 0x10, 0xe01, 0xe08), .filter0 = 0xe05, .filter1 = 0xe06 },
	{ MSR_BOX("sbox", 4, 4, 0xa, 0x721, 0x726) },
	{ MSR_BOX("pcu", 1, 4, 0, 0x711, 0x717), .filter0 = 0x715 },
	{ PCI_BOX("ha", 4, 4, 0xd8, 0xa0, hswep_ha_devfn, ARRAY_SIZE(hswep_ha_devfn)) },
	{ PCI_BOX("imc", 4, 4, 0xd8, 0xa0, hswep_imc_devfn, ARRAY_SIZE(hswep_imc_devfn)),
	  .fixed_ctr = 0xd0 },
	{ PCI_BOX("irp", 4, 4, 0xd8, 0xa0, ivbep_irp_devfn, ARRAY_SIZE(ivbep_irp_devfn)),
	  .ctl_at = ivbep_irp_ctl },
	{ PCI_BOX("qpi", 4, 4, 0xd8, 0xa0, hswep_qpi_devfn, ARRAY_SIZE(hswep_qpi_devfn)) },
	{ PCI_BOX("r2pcie", 4, 4, 0xd8, 0xa0, hswep_r2pcie_devfn,
		  ARRAY_SIZE(hswep_r2pcie_devfn)) },
	{ PCI_BOX("r3qpi", 3, 4, 0xd8, 0xa0, hswep_r3qpi_devfn, ARRAY_SIZE(hswep_r3qpi_devfn)) },
};

static const struct unc_unpassed hswep_unpassed[] = {
	{ 8, 6, 0x228, 0x23f, "QPI packet match/mask (perf's config2)" },
	{ 9, 6, 0x228, 0x23f, "QPI packet match/mask (perf's config2)" },
	{ 10, 6, 0x228, 0x23f, "QPI packet match/mask (perf's config2)" },
	{ 18, 1, 0x40, 0x4b, "HA address/opcode match (Linux programs none)" },
	{ 18, 5, 0x40, 0x4b, "HA address/opcode match (Linux programs none)" },
};

/*
 * Broadwell-EP, Xeon E5-2600 v4 and E5-4600 v4 (model 0x4f), and
 * Broadwell-DE, Xeon D-1500 (model 0x56), which Linux drives alike:
 * Haswell-EP's boxes at its addresses, up to 24 CBos, and a ubox Linux
 * gives no filter. A Broadwell-DE has no SBox or QPI: Linux registers no
 * PMU for them, so their counters are refused as any box without one.
 */
static const struct unc_box bdx_boxes[] = {
	{ MSR_BOX("ubox", 1, 2, 0, 0x705, 0x709), .fixed_ctr = 0x704 },
	{ MSR_BOX("cbox", 24, 4, 0x10, 0xe01, 0xe08), .filter0 = 0xe05, .filter1 = 0xe06 },
	{ MSR_BOX("sbox", 4, 4, 0xa, 0x721, 0x726) },
	{ MSR_BOX("pcu", 1, 4, 0, 0x711, 0x717), .filter0 = 0x715 },
	{ PCI_BOX("ha", 4, 4, 0xd8, 0xa0, hswep_ha_devfn, ARRAY_SIZE(hswep_ha_devfn)) },
	{ PCI_BOX("imc", 4, 4, 0xd8, 0xa0, hswep_imc_devfn, ARRAY_SIZE(hswep_imc_devfn)),
	  .fixed_ctr = 0xd0 },
	{ PCI_BOX("irp", 4, 4, 0xd8, 0xa0, ivbep_irp_devfn, ARRAY_SIZE(ivbep_irp_devfn)),
	  .ctl_at = ivbep_irp_ctl },
	{ PCI_BOX("qpi", 4, 4, 0xd8, 0xa0, hswep_qpi_devfn, ARRAY_SIZE(hswep_qpi_devfn)) },
	{ PCI_BOX("r2pcie", 4, 4, 0xd8, 0xa0, hswep_r2pcie_devfn,
		  ARRAY_SIZE(hswep_r2pcie_devfn)) },
	{ PCI_BOX("r3qpi", 3, 4, 0xd8, 0xa0, hswep_r3qpi_devfn, ARRAY_SIZE(hswep_r3qpi_devfn)) },
};

static const struct unc_model unc_models[] = {
	{ 6, 0x55, "Skylake-SP", skx_boxes, ARRAY_SIZE(skx_boxes), "uncore_ubox", NULL, 0 },
	{ 6, 0x2d, "Sandy Bridge-EP", snbep_boxes, ARRAY_SIZE(snbep_boxes), "uncore_ubox",
	  snbep_unpassed, ARRAY_SIZE(snbep_unpassed) },
	{ 6, 0x3e, "Ivy Bridge-EP", ivbep_boxes, ARRAY_SIZE(ivbep_boxes), "uncore_ubox",
	  ivbep_unpassed, ARRAY_SIZE(ivbep_unpassed) },
	{ 6, 0x3f, "Haswell-EP", hswep_boxes, ARRAY_SIZE(hswep_boxes), "uncore_ubox",
	  hswep_unpassed, ARRAY_SIZE(hswep_unpassed) },
	{ 6, 0x4f, "Broadwell-EP", bdx_boxes, ARRAY_SIZE(bdx_boxes), "uncore_ubox",
	  hswep_unpassed, ARRAY_SIZE(hswep_unpassed) },
	{ 6, 0x56, "Broadwell-DE", bdx_boxes, ARRAY_SIZE(bdx_boxes), "uncore_ubox",
	  hswep_unpassed, ARRAY_SIZE(hswep_unpassed) },
};

static const struct unc_model *unc_model(const struct acp_target *t)
{
	u32 regs[4], family, model;

	if (!t->ops->cpuid || !t->ops->cpuid(t->ctx, -1, 1, 0, regs))
		return NULL;
	family = (regs[0] >> 8) & 0xf;
	model = (regs[0] >> 4) & 0xf;
	if (family == 6 || family == 0xf)
		model |= ((regs[0] >> 16) & 0xf) << 4;
	for (size_t i = 0; i < ARRAY_SIZE(unc_models); i++)
		if (unc_models[i].family == family && unc_models[i].model == model)
			return &unc_models[i];
	return NULL;
}

/* ---- the PMU's format files (format.c parses them) ---- */

/* A PMU of the target: its type, and the bits its formats name. */
struct unc_pmu {
	char name[ACP_UNC_PMU_NAME];
	u32 type;
	u64 bits[ACP_FORMAT_WORDS];
};

#define UNC_FORMATS_LEN	2048

static bool unc_pmu(struct acp_target *t, const char name[ACP_UNC_PMU_NAME],
		    struct unc_pmu *pmu, char *formats)
{
	const char *f;

	memset(pmu, 0, sizeof(*pmu));
	memcpy(pmu->name, name, sizeof(pmu->name));
	/* The last byte stays 0: every format ends inside the buffer. */
	memset(formats, 0, UNC_FORMATS_LEN);
	if (!t->ops->find_pmu ||
	    !t->ops->find_pmu(t->ctx, name, &pmu->type, formats, UNC_FORMATS_LEN - 1))
		return false;
	for (f = formats; f < formats + UNC_FORMATS_LEN && *f; f += strlen(f) + 1)
		if (!acp_pmu_format_bits(f, pmu->bits))
			acp_log(t, "%s: format \"%s\" not understood; its bits are refused",
				name, f);
	return true;
}

/* The target collects uncore: its glue offers the PMUs, and aca knows its model's boxes. */
bool acp_uncore_available(const struct acp_target *t)
{
	const struct unc_model *m = unc_model(t);
	u32 type;
	char formats[8];

	return m && t->ops->find_pmu &&
	       t->ops->find_pmu(t->ctx, m->probe, &type, formats, 0);
}

/* ---- the ECB ---- */

struct unc_view {
	struct acp_target *t;
	const struct unc_model *m;
	const struct sep_ecb *hdr;
	const struct sep_event_reg *slots;
	u32 nslots;
	char *formats;
};

/* Where a register is: box @box (instance @n), counter @ctr or -1 (fixed). */
struct unc_where {
	const struct unc_box *box;
	u32 n;
	int ctr;
};

static bool pci_box(const struct unc_box *b, const struct sep_event_reg *r, u32 *n)
{
	for (u32 i = 0; i < b->nboxes; i++)
		if (b->devfn[i][0] == r->event_reg_id.pci_dev_no &&
		    b->devfn[i][1] == r->event_reg_id.pci_func_no) {
			*n = i;
			return true;
		}
	return false;
}

/* The counter register @r reads, if it is one. */
static bool counter_at(const struct unc_view *v, const struct sep_event_reg *r,
		       struct unc_where *w)
{
	for (u32 b = 0; b < v->m->nboxes; b++) {
		const struct unc_box *box = &v->m->boxes[b];
		u32 reg = r->event_reg_id.reg_id, n = 0, off;

		if (box->prog != r->reg_prog_type)
			continue;
		if (box->prog == SEP_REG_PROG_PCI && !pci_box(box, r, &n))
			continue;
		if (box->prog == SEP_REG_PROG_MSR && box->box_step && reg >= box->ctr0) {
			n = (reg - box->ctr0) / box->box_step;
			if (n >= box->nboxes)
				continue;
			reg -= n * box->box_step;
		}
		w->box = box;
		w->n = n;
		if (box->fixed_ctr && reg == box->fixed_ctr) {
			w->ctr = -1;
			return true;
		}
		for (u32 k = 0; box->ctr_at && k < box->ncounters; k++)
			if (reg == box->ctr_at[k]) {
				w->ctr = k;
				return true;
			}
		if (box->ctr_at)
			continue;
		off = reg - box->ctr0;
		if (reg >= box->ctr0 && off % box->ctr_step == 0 &&
		    off / box->ctr_step < box->ncounters) {
			w->ctr = off / box->ctr_step;
			return true;
		}
	}
	return false;
}

/* The register of box @w at @reg0 (box 0's), in the ECB's WRITE slots. */
static bool written(const struct unc_view *v, const struct sep_event_reg *ctr,
		    const struct unc_where *w, u32 reg0, u64 *val)
{
	const struct sep_pmu_operation *o = &v->hdr->operations[SEP_OP_WRITE];
	u32 reg = reg0 + (w->box->prog == SEP_REG_PROG_MSR ? w->n * w->box->box_step : 0);

	for (u32 i = 0; i < o->register_len; i++) {
		const struct sep_event_reg *r = &v->slots[o->register_start + i];

		if (r->event_reg_id.reg_id != reg || r->reg_prog_type != w->box->prog)
			continue;
		if (w->box->prog == SEP_REG_PROG_PCI &&
		    (r->event_reg_id.pci_dev_no != ctr->event_reg_id.pci_dev_no ||
		     r->event_reg_id.pci_func_no != ctr->event_reg_id.pci_func_no))
			continue;
		*val = r->reg_value;
		return true;
	}
	return false;
}

/* perf's name of box @w: uncore_<box>, or uncore_<box>_<n> if it has several. */
static void pmu_name(const struct unc_where *w, char name[ACP_UNC_PMU_NAME])
{
	static const char prefix[] = "uncore_";
	size_t len = strlen(w->box->name);

	/* Box names are short and n < 100 (unc_box.nboxes is at most 28). */
	memcpy(name, prefix, sizeof(prefix) - 1);
	memcpy(name + sizeof(prefix) - 1, w->box->name, len + 1);
	if (w->box->nboxes == 1)
		return;
	len += sizeof(prefix) - 1;
	name[len++] = '_';
	if (w->n >= 10)
		name[len++] = '0' + w->n / 10;
	name[len++] = '0' + w->n % 10;
	name[len] = 0;
}

/* Bits of @val outside what the PMU's formats name in @word. */
static bool fits(const struct unc_view *v, const struct unc_pmu *pmu,
		 const char *what, u32 word, u64 val)
{
	u64 extra = val & ~pmu->bits[word];

	if (!extra)
		return true;
	acp_log(v->t, "ECB: %s %s 0x%llx: bits 0x%llx are in none of its formats",
		pmu->name, what, (unsigned long long)val, (unsigned long long)extra);
	return false;
}

static bool add_unc_event(const struct unc_view *v, const struct sep_event_reg *ctr,
			  struct acp_unc_event *e)
{
	struct unc_where w;
	struct unc_pmu pmu;
	char name[ACP_UNC_PMU_NAME];
	u64 sel = 0, f0 = 0, f1 = 0;

	if (!counter_at(v, ctr, &w)) {
		acp_log(v->t, "ECB: uncore register 0x%x (%s %u:%u) is no %s counter aca knows",
			ctr->event_reg_id.reg_id,
			ctr->reg_prog_type == SEP_REG_PROG_PCI ? "PCI" : "type",
			ctr->reg_prog_type == SEP_REG_PROG_PCI ?
				ctr->event_reg_id.pci_dev_no : ctr->reg_prog_type,
			ctr->event_reg_id.pci_func_no, v->m->name);
		return false;
	}
	pmu_name(&w, name);
	if (!unc_pmu(v->t, name, &pmu, v->formats)) {
		acp_log(v->t, "ECB: the target has no perf PMU %s (%s)", name,
			"its uncore driver is not loaded, or there is no such box");
		return false;
	}
	if (w.ctr < 0) {
		e->config = UNC_FIXED_EVENT;
	} else {
		u32 ctl = w.box->ctl_at ? w.box->ctl_at[w.ctr] :
			  w.box->ctl0 + w.ctr * w.box->ctl_step;

		if (!written(v, ctr, &w, ctl, &sel)) {
			acp_log(v->t, "ECB: %s counter %d has no event select", pmu.name, w.ctr);
			return false;
		}
		e->config = sel & ~UNC_CTL_PERF_OWNED;
		/* perf would take it for the box's fixed counter. */
		if ((e->config & UNC_FIXED_EVENT) == UNC_FIXED_EVENT) {
			acp_log(v->t, "ECB: %s counter %d: event 0xff is perf's fixed counter",
				pmu.name, w.ctr);
			return false;
		}
		if (!fits(v, &pmu, "event select", 0, e->config))
			return false;
	}
	e->counter = w.ctr < 0 ? ACP_UNC_FIXED : w.ctr;
	if (w.box->filter0)
		written(v, ctr, &w, w.box->filter0, &f0);
	if (w.box->filter1)
		written(v, ctr, &w, w.box->filter1, &f1);
	if (f0 >> 32 || f1 >> 32) {
		acp_log(v->t, "ECB: %s filter 0x%llx/0x%llx: a filter register has 32 bits",
			pmu.name, (unsigned long long)f0, (unsigned long long)f1);
		return false;
	}
	e->config1 = f0 | f1 << 32;
	if (!fits(v, &pmu, "filter", 1, e->config1))
		return false;
	e->type = pmu.type;
	memcpy(e->pmu, pmu.name, sizeof(e->pmu));
	e->event_index = ctr->event_id_index;
	e->record_offset = ctr->counter_event_offset;
	e->group_offset = v->hdr->group_offset;
	e->desc_id = v->hdr->descriptor_id;
	return true;
}

/* Counter @e's counter is in @evs (@n of them) already. */
static bool unc_counted(const struct acp_unc_event *evs, u32 n, const struct acp_unc_event *e)
{
	for (u32 i = 0; i < n; i++)
		if (evs[i].counter == e->counter && !strcmp(evs[i].pmu, e->pmu))
			return true;
	return false;
}

/* A WRITE slot setting a filter the model's PMUs take from no config word aca sets. */
static bool unc_unpassed_written(const struct unc_view *v)
{
	const struct sep_pmu_operation *o = &v->hdr->operations[SEP_OP_WRITE];

	for (u32 i = 0; i < o->register_len; i++) {
		const struct sep_event_reg *r = &v->slots[o->register_start + i];

		if (r->reg_prog_type != SEP_REG_PROG_PCI || !r->reg_value)
			continue;
		for (u32 k = 0; k < v->m->nunpassed; k++) {
			const struct unc_unpassed *u = &v->m->unpassed[k];

			if (r->event_reg_id.pci_dev_no != u->dev ||
			    r->event_reg_id.pci_func_no != u->func ||
			    r->event_reg_id.reg_id < u->first || r->event_reg_id.reg_id > u->last)
				continue;
			acp_log(v->t, "ECB: PCI %u.%u register 0x%x = 0x%llx: %s %s: %s",
				u->dev, u->func, r->event_reg_id.reg_id,
				(unsigned long long)r->reg_value, v->m->name, u->what,
				"aca cannot pass it to perf, and counting unfiltered would mislead");
			return true;
		}
	}
	return false;
}

/*
 * An MMIO counter (reg_prog_type 3), as Intel's one uncore vector reads
 * the DRAM counters at MCHBAR + 0x6868 and + 0x686C (spec 6.7): aca reads
 * a counter only through a perf PMU and maps no register itself, and no
 * Linux PMU reads those offsets (client uncore_imc: + 0x5040 to + 0x5054;
 * Tiger Lake and later imc_free_running: + 0x5040/0x5058/0x50A0 or
 * + 0xD840/0xD858/0xD8A0; spec 6.7). The ECB is refused with 228
 * (VT_INVALID_PROG_INFO, a register aca does not program or read), the
 * log naming the register.
 */
static bool unc_mmio_read(const struct unc_view *v)
{
	const struct sep_pmu_operation *o = &v->hdr->operations[SEP_OP_READ];

	for (u32 i = 0; i < o->register_len; i++) {
		const struct sep_event_reg *r = &v->slots[o->register_start + i];

		if (!r->event_reg_id.reg_id || r->reg_prog_type != SEP_REG_PROG_MMIO)
			continue;
		acp_log(v->t,
			"ECB: uncore register MMIO 0x%x (device type %u) refused (%d): %s (%s); %s",
			r->event_reg_id.reg_id, v->hdr->device_type, VT_INVALID_PROG_INFO,
			"no Linux perf PMU reads this offset",
			"Linux's IMC free-running counters: BAR + 0x5040-0x50A0, 0xD840-0xD8A0",
			"aca maps no register itself");
		return true;
	}
	return false;
}

/* Every READ slot (a counter) becomes an event, in slot order. */
static bool unc_decode(const struct unc_view *v, struct acp_unc_event *out, u32 max,
		       u32 *n)
{
	const struct sep_pmu_operation *o = &v->hdr->operations[SEP_OP_READ];

	*n = 0;
	if (unc_unpassed_written(v))
		return false;
	for (u32 i = 0; i < o->register_len; i++) {
		const struct sep_event_reg *r = &v->slots[o->register_start + i];

		if (!r->event_reg_id.reg_id)
			continue;
		if (*n == max) {
			acp_log(v->t, "ECB: more than %u uncore counters in one collection",
				ACP_MAX_UNC_EVENTS);
			return false;
		}
		memset(&out[*n], 0, sizeof(out[*n]));
		if (!add_unc_event(v, r, &out[*n]))
			return false;
		/* One event per hardware counter: a second would contend for it. */
		if (unc_counted(v->t->cfg.unc, v->t->cfg.nunc + *n, &out[*n])) {
			acp_log(v->t, "ECB: %s counter %u is read twice", out[*n].pmu,
				out[*n].counter);
			return false;
		}
		++*n;
	}
	return true;
}

/* ---- the commands ---- */

/* Why an uncore request is refused, and what to do. */
#define ACP_UNC_WHAT	"aca collects no uncore events on this target"
#define ACP_UNC_WHY	"no uncore PMU of a model it knows; status switch bit 5 clear"
#define ACP_UNC_DO	"configure core events only"

/*
 * Where the target has no uncore (acp_uncore_available() false, switch
 * bit 5 clear in the status message), a host that asks anyway is told so
 * with 183 (VT_INVALID_DEVICE), rather than an uncore channel that stays
 * empty. The session stays configured, as for any refused configuration
 * command. A refusal carries no DRV_IOCTL_STATUS: a failed reply has no
 * payload (spec 4.1).
 */
static s32 unc_refused(const struct acp_cmd *cmd, const char *name)
{
	acp_log(cmd->t, "%s refused (%d): %s (%s): %s", name, VT_INVALID_DEVICE,
		ACP_UNC_WHAT, ACP_UNC_WHY, ACP_UNC_DO);
	return VT_INVALID_DEVICE;
}

/* Uncore counts go into records on the uncore channel: sampling mode only. */
static bool unc_counting_refused(const struct acp_cmd *cmd, const char *name)
{
	if (!acp_counting_mode(&cmd->t->cfg))
		return false;
	acp_log(cmd->t, "%s: %s; counting mode reads core counters only", name,
		"uncore counts go into records on the uncore channel");
	return true;
}

s32 acp_cmd_init_unc(const struct acp_cmd *cmd, struct acp_reply *r)
{
	if (!acp_uncore_available(cmd->t))
		return unc_refused(cmd, "INIT_UNC");
	if (unc_counting_refused(cmd, "INIT_UNC"))
		return VT_BAD_PARAMETER;
	return VT_SUCCESS;
}

/* One group per uncore device: uncore groups do not multiplex. */
s32 acp_cmd_em_groups_unc(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_config *cfg = &cmd->t->cfg;
	struct sep_event_config ec;

	if (!acp_uncore_available(cmd->t))
		return unc_refused(cmd, "EM_GROUPS_UNC");
	memcpy(&ec, cmd->in, sizeof(ec));
	if (unc_counting_refused(cmd, "EM_GROUPS_UNC"))
		return VT_BAD_PARAMETER;
	if (ec.num_groups != 1) {
		acp_log(cmd->t, "EM_GROUPS_UNC: %u groups; aca counts one uncore group per device",
			ec.num_groups);
		return VT_BAD_PARAMETER;
	}
	if (!cfg->unc) {
		cfg->unc = acp_zalloc(cmd->t, ACP_MAX_UNC_EVENTS * sizeof(*cfg->unc));
		if (!cfg->unc)
			return VT_NO_MEMORY;
	}
	return VT_SUCCESS;
}

/* A U64 at @off of a @size-byte uncore record, after its head, aligned. */
static bool unc_u64_fits(u32 off, u32 size)
{
	return off % 8 == 0 && off >= sizeof(struct sep_unc_record_head) && off + 8ull <= size;
}

/*
 * An uncore device's ECB adds its counters to the collection's, all or
 * none. Its records (spec 7.2) are its descriptor's size: every counter's
 * U64 and the group's must lie in it.
 */
s32 acp_cmd_em_config_next_unc(const struct acp_cmd *cmd, struct acp_reply *r)
{
	struct acp_config *cfg = &cmd->t->cfg;
	struct sep_drv_ioctl_status st = { 0 };
	struct unc_view v = { .t = cmd->t };
	u32 n, size;
	s32 ret = VT_DRIVER_COMM_FAILED;

	if (!acp_uncore_available(cmd->t))
		return unc_refused(cmd, "EM_CONFIG_NEXT_UNC");
	if (!cfg->unc) {
		acp_log(cmd->t, "EM_CONFIG_NEXT_UNC before EM_GROUPS_UNC");
		return VT_BAD_PARAMETER;
	}
	v.m = unc_model(cmd->t);
	v.hdr = (const struct sep_ecb *)cmd->in;
	v.slots = (const struct sep_event_reg *)(cmd->in + sizeof(*v.hdr));
	v.nslots = (cmd->in_len - sizeof(*v.hdr)) / sizeof(struct sep_event_reg);
	if (v.hdr->group_offset > 0xffff || v.hdr->descriptor_id >= cfg->ndesc) {
		acp_log(cmd->t, "EM_CONFIG_NEXT_UNC: descriptor %u of %u, group @%u",
			v.hdr->descriptor_id, cfg->ndesc, v.hdr->group_offset);
		return VT_BAD_PARAMETER;
	}
	size = cfg->desc[v.hdr->descriptor_id].sample_size;
	if (!acp_ecb_sections_fit(cmd->t, v.hdr, v.nslots))
		return ret;
	v.formats = acp_zalloc(cmd->t, UNC_FORMATS_LEN);
	if (!v.formats)
		return VT_NO_MEMORY;
	if (unc_mmio_read(&v)) {
		ret = VT_INVALID_PROG_INFO;
		goto out;
	}
	if (!unc_decode(&v, cfg->unc + cfg->nunc, ACP_MAX_UNC_EVENTS - cfg->nunc, &n))
		goto out;
	for (u32 i = 0; i < n; i++) {
		const struct acp_unc_event *e = &cfg->unc[cfg->nunc + i];

		if (!unc_u64_fits(e->record_offset, size) ||
		    !unc_u64_fits(e->group_offset, size) ||
		    e->record_offset == e->group_offset) {
			acp_log(cmd->t, "ECB: %s count @%u, group @%u: %s of a %u-byte record",
				e->pmu, e->record_offset, e->group_offset,
				"not two U64s after the head", size);
			goto out;
		}
	}
	for (u32 i = 0; i < n; i++) {
		cfg->unc[cfg->nunc + i].device = cfg->nunc_devices;
		/* Its records' size now: a descriptor sent again later changes nothing. */
		cfg->unc[cfg->nunc + i].rec_size = size;
	}
	cfg->nunc += n;
	cfg->nunc_devices += n ? 1 : 0;
	ret = VT_SUCCESS;
out:
	acp_free(cmd->t, v.formats);
	if (ret == VT_SUCCESS && cmd->out_len >= sizeof(st))
		acp_reply_copy(r, &st, sizeof(st));
	return ret;
}
