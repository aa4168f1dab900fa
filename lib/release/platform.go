package release

import (
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"fmt"
)

// Platform reads which GOOS and GOARCH an executable was built for from its header (ELF,
// Mach-O or PE); Linux stands for every ELF system.
func Platform(path string) (goos, goarch string, err error) {
	if f, err := elf.Open(path); err == nil {
		defer f.Close()
		arch := map[elf.Machine]string{elf.EM_X86_64: "amd64", elf.EM_AARCH64: "arm64", elf.EM_386: "386", elf.EM_ARM: "arm"}[f.Machine]
		if arch == "" {
			return "", "", fmt.Errorf("%s: ELF for machine %s", path, f.Machine)
		}
		return "linux", arch, nil
	}
	if f, err := macho.Open(path); err == nil {
		defer f.Close()
		arch := map[macho.Cpu]string{macho.CpuAmd64: "amd64", macho.CpuArm64: "arm64"}[f.Cpu]
		if arch == "" {
			return "", "", fmt.Errorf("%s: Mach-O for CPU %s", path, f.Cpu)
		}
		return "darwin", arch, nil
	}
	if f, err := pe.Open(path); err == nil {
		defer f.Close()
		arch := map[uint16]string{pe.IMAGE_FILE_MACHINE_AMD64: "amd64", pe.IMAGE_FILE_MACHINE_ARM64: "arm64", pe.IMAGE_FILE_MACHINE_I386: "386"}[f.Machine]
		if arch == "" {
			return "", "", fmt.Errorf("%s: PE for machine %#x", path, f.Machine)
		}
		return "windows", arch, nil
	}
	return "", "", fmt.Errorf("%s is not an executable this release knows (ELF, Mach-O or PE)", path)
}
