// More writers onto a disk device (dcfldd, ddrescue, socat, xxd -r, bmaptool, qemu-img), and
// the tools that destroy a storage pool, a volume or the labels that hold them together (ZFS,
// LVM, md RAID).

package danger

import (
	"strings"

	"github.com/hookkit/harness/lib/shell"
)

// diskVolumeDestroy: a pool, volume group or logical volume destroyed, or the metadata that
// assembles one wiped: every filesystem on it is gone.
var diskVolumeDestroy = &Rule{ID: "disk.volume-destroy", Action: Deny, Radius: High, Instead: "ask the user to manage pools and volumes"}

// diskWriters judges the programs beyond dd that write what they read onto a path, when that
// path is a disk device; and the pool and volume destroyers.
func (j *judge) diskWriters(c *shell.Cmd) {
	switch c.Name {
	case "dcfldd", "ddrescue", "gddrescue", "xxd", "socat", "bmaptool", "qemu-img", "zpool", "zfs", "lvremove", "vgremove", "pvremove", "mdadm":
	default:
		return // every other command: no operands to collect
	}
	var ops []string
	for _, a := range c.Args {
		if !strings.HasPrefix(a, "-") {
			ops = append(ops, a)
		}
	}
	target := ""
	switch c.Name {
	case "dcfldd":
		for _, a := range c.Args {
			if of, ok := strings.CutPrefix(a, "of="); ok && diskDevice(j.res(c, of)) {
				target = of
			}
		}
	case "ddrescue", "gddrescue":
		if len(ops) >= 2 {
			target = ops[1] // infile outfile [mapfile]
		}
	case "xxd":
		if containsArg(c.Args, "-r") || containsArg(c.Args, "-revert") {
			if len(ops) >= 2 {
				target = ops[1]
			}
		}
	case "socat":
		if len(ops) >= 2 {
			// the second address is written (with -u, or in both directions without it)
			a := ops[1]
			if _, rest, ok := strings.Cut(a, ":"); ok && strings.HasPrefix(rest, "/dev/") {
				a = rest
			}
			target, _, _ = strings.Cut(a, ",")
		}
	case "bmaptool":
		if at(ops, 0) == "copy" && len(ops) >= 3 {
			target = ops[2]
		}
	case "qemu-img":
		if at(ops, 0) == "convert" && len(ops) >= 3 {
			target = ops[len(ops)-1]
		}
		for _, a := range c.Args {
			if of, ok := strings.CutPrefix(a, "of="); ok && at(ops, 0) == "dd" {
				target = of
			}
		}
	case "zpool":
		switch at(ops, 0) {
		case "destroy":
			j.add(c, diskVolumeDestroy, "zpool destroy destroys the pool "+at(ops, 1)+" and every dataset on it", "")
		case "labelclear":
			j.add(c, diskVolumeDestroy, "zpool labelclear wipes the ZFS label of "+at(ops, 1)+": the pool it belongs to no longer imports", "")
		}
		return
	case "zfs":
		if at(ops, 0) == "destroy" && len(ops) >= 2 {
			ds := ops[1]
			// a snapshot (pool/fs@snap) is routine pruning; a dataset itself, with -r or -R
			// everything under it, is data gone
			if !strings.Contains(ds, "@") && !strings.Contains(ds, "#") {
				j.add(c, diskVolumeDestroy, "zfs destroy destroys the dataset "+ds+" and its data", "")
			}
		}
		return
	case "lvremove", "vgremove", "pvremove":
		if len(ops) > 0 || containsArg(c.Args, "-a") || containsArg(c.Args, "--all") {
			j.add(c, diskVolumeDestroy, c.Name+" removes "+strings.Join(ops, " ")+", with every filesystem on it", "")
		}
		return
	case "mdadm":
		if containsArg(c.Args, "--zero-superblock") {
			j.add(c, diskVolumeDestroy, "mdadm --zero-superblock wipes the RAID metadata of "+strings.Join(ops, " ")+": the array no longer assembles", "")
		}
		return
	default:
		return
	}
	if target != "" && diskDevice(j.res(c, target)) {
		j.add(c, diskWriteDevice, c.Name+" writes onto "+target+", a disk device, destroying its filesystems", "")
	}
}
