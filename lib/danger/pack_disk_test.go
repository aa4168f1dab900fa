package danger

import "testing"

// TestPackDisk names the rule of the disks pack each command must be decided by ("": allowed).
func TestPackDisk(t *testing.T) {
	checkPack(t, []packCase{
		{"pwsh -c 'Format-Volume -DriveLetter D'", "disk.format"},
		{"mkfs.ext4 /dev/sdb1", "disk.mkfs"},
		{"sudo fdisk /dev/sda", "disk.partition"},
		{"sudo badblocks -wsv /dev/sdb", "disk.wipe"},
		{"wipefs -a /dev/sda", "disk.wipefs"},
		{"sudo shred -vzn 3 /dev/sda", "disk.write-device"},
		{"df -h /", ""},
		{"lsblk -f", ""},
		{"sudo fdisk -l", ""},
	})
}
