package danger

import (
	"cmp"
	"slices"
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// The rules of this pack.
var (
	diskDd          = &Rule{ID: "disk.dd", Action: Deny, Radius: High, Instead: "write to an image file instead (of=disk.img)"}
	diskFormat      = &Rule{ID: "disk.format", Action: Deny, Radius: High, Instead: "ask the user to manage disks"}
	diskMkfs        = &Rule{ID: "disk.mkfs", Action: Deny, Radius: High, Instead: "format an image file, or ask the user to do it"}
	diskPartition   = &Rule{ID: "disk.partition", Action: Deny, Radius: High, Instead: "ask the user to repartition"}
	diskWipe        = &Rule{ID: "disk.wipe", Action: Deny, Radius: High, Instead: "ask the user to manage disks"}
	diskWipefs      = &Rule{ID: "disk.wipefs", Action: Deny, Radius: High, Instead: "ask the user to do it"}
	diskWriteDevice = &Rule{ID: "disk.write-device", Action: Deny, Radius: High, Instead: "write to an image file instead"}
)

var packDisk = pack{name: "disk", title: "disks",
	rules: []*Rule{diskDd, diskFormat, diskMkfs, diskPartition, diskVolumeDestroy, diskWipe, diskWipefs, diskWriteDevice},
	known: (*judge).diskWriters,
	programs: []program{
		{[]string{"dd"}, (*judge).dd}, {[]string{"wipefs"}, (*judge).wipefs},
		{[]string{"fdisk", "sfdisk", "parted", "gdisk", "sgdisk", "cfdisk"}, (*judge).partition},
		{[]string{"badblocks", "blkdiscard", "cryptsetup", "nvme", "hdparm", "sg_format"}, (*judge).blockTools},
		{[]string{"mkfs", "mke2fs", "mkswap"}, (*judge).mkfs}, {[]string{"mkfs.*", "newfs", "newfs_*"}, (*judge).formats},
		{[]string{"gpt"}, (*judge).gpt}, {[]string{"asr"}, (*judge).asr},
	},
}

// The option grammars of the programs this file judges: which options take a value.
var (
	mkfsOpts   = shell.Opts{Short: "tLbcCgiIjJlmNoOrTUE", Long: []string{"type"}}
	wipefsOpts = shell.Opts{Short: "optO", Long: []string{"offset", "output", "types"}}
)

// diskDevice reports whether a path is a whole disk or partition device.
func diskDevice(p string) bool {
	if !strings.HasPrefix(p, "/dev/") {
		return false
	}
	b := strings.TrimPrefix(p, "/dev/")
	for _, pre := range []string{"sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "loop", "mapper/", "nbd", "sr"} {
		if strings.HasPrefix(b, pre) {
			return true
		}
	}
	return b == "mem" || b == "kmem" || b == "port"
}

func (j *judge) dd(c *shell.Cmd) {
	for _, a := range c.Args {
		if of, ok := strings.CutPrefix(a, "of="); ok && diskDevice(j.res(c, of)) {
			j.add(c, diskDd, "dd onto "+of+" overwrites a disk device, destroying its filesystems", "")
		}
	}
}

func (j *judge) mkfs(c *shell.Cmd) {
	j.formats(c)
}

// formats: mkfs and friends on a device destroy what is on it.
func (j *judge) formats(c *shell.Cmd) {
	p := mkfsOpts.Parse(c.Args) // -F is force, not a value
	for _, op := range p.Operands {
		if diskDevice(j.res(c, op)) {
			j.add(c, diskMkfs, c.Name+" on "+op+" formats a disk device, destroying its data", "")
			return
		}
	}
}

// blockTools: commands that destroy a block device's contents (badblocks -w, blkdiscard,
// cryptsetup luksFormat, nvme format, hdparm --security-erase, sg_format).
func (j *judge) blockTools(c *shell.Cmd) {
	destroys := false
	switch c.Name {
	case "badblocks":
		destroys = slices.Contains(c.Args, "-w") || slices.ContainsFunc(c.Args, func(a string) bool {
			return strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "w")
		})
	case "blkdiscard", "sg_format":
		destroys = true
	case "cryptsetup":
		destroys = slices.Contains(c.Args, "luksFormat") || slices.Contains(c.Args, "erase") || slices.Contains(c.Args, "luksErase")
	case "nvme":
		destroys = len(c.Args) > 0 && (c.Args[0] == "format" || c.Args[0] == "sanitize")
	case "hdparm":
		destroys = slices.ContainsFunc(c.Args, func(a string) bool { return strings.HasPrefix(a, "--security-erase") || a == "--trim-sector-ranges" })
	}
	if !destroys {
		return
	}
	for _, a := range c.Args {
		if diskDevice(j.res(c, a)) {
			j.add(c, diskWipe, c.Name+" destroys the data on "+a, "")
			return
		}
	}
}

func (j *judge) wipefs(c *shell.Cmd) {
	p := wipefsOpts.Parse(c.Args)
	if p.Has("n", "no-act") {
		return
	}
	if len(p.Operands) > 0 && !(len(p.Operands) == 1 && !p.Has("a", "all") && !p.Has("o", "offset")) || p.Has("a", "all") {
		j.add(c, diskWipefs, "wipefs erases filesystem signatures, making the data unreachable", "")
		return
	}
}

func (j *judge) partition(c *shell.Cmd) {
	readOnly := map[string][]string{
		"sfdisk": {"-l", "--list", "-d", "--dump", "-J", "--json", "-s", "--show-size", "-V", "--verify", "-g", "--show-geometry"},
		"fdisk":  {"-l", "--list"}, "cfdisk": {}, "gdisk": {"-l"},
		"parted": {"-l", "--list", "print"}, "sgdisk": {"-p", "--print", "-i", "--info", "-v", "--verify", "-b", "--backup"},
	}[c.Name]
	for _, a := range c.Args {
		if slices.Contains(readOnly, a) {
			return
		}
	}
	if c.Name == "parted" && slices.Contains(c.Args, "-l") {
		return
	}
	for _, a := range c.Args {
		if diskDevice(a) {
			j.add(c, diskPartition, c.Name+" rewrites the partition table of "+a, "use "+c.Name+" -l to inspect, and ask the user to repartition")
			return
		}
	}
}

// gpt (macOS, BSD) rewrites the GUID partition table of a disk with destroy, create, add,
// remove, migrate, recover or resize; show and label -l only read it.
func (j *judge) gpt(c *shell.Cmd) {
	ops := shell.Opts{Short: "p"}.Parse(c.Args).Operands
	switch at(ops, 0) {
	case "destroy", "create", "add", "remove", "migrate", "recover", "resize", "resizedisk":
		j.add(c, diskPartition, "gpt "+ops[0]+" rewrites the partition table of "+cmp.Or(at(ops, len(ops)-1), "a disk"), "use gpt show to inspect, and ask the user to repartition")
	}
}

// asr restore writes a disk image over the target volume (--erase erases it first;
// restoreexact copies it block for block): what was on the target is gone.
func (j *judge) asr(c *shell.Cmd) {
	verb := strings.ToLower(at(c.Args, 0))
	target := false
	for _, a := range c.Args {
		target = target || a == "--target" || a == "-target" || a == "-t"
	}
	// Old spelling: asr -source IMG -target VOL, with no verb.
	if verb == "restore" || verb == "restoreexact" || target && strings.HasPrefix(verb, "-") {
		j.add(c, diskFormat, "asr "+cmp.Or(verb, "restore")+" writes a disk image over the target volume, erasing what it holds", "")
	}
}
