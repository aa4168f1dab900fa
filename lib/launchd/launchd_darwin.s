//go:build darwin && !ios

#include "textflag.h"

// Each trampoline jumps to the libSystem function the dynamic import names; its address is
// what activate hands syscall.syscall.

TEXT launch_activate_socket_trampoline<>(SB),NOSPLIT,$0-0
	JMP	libc_launch_activate_socket(SB)
GLOBL	·launchActivateSocketTrampolineAddr(SB), RODATA, $8
DATA	·launchActivateSocketTrampolineAddr(SB)/8, $launch_activate_socket_trampoline<>(SB)

TEXT free_trampoline<>(SB),NOSPLIT,$0-0
	JMP	libc_free(SB)
GLOBL	·freeTrampolineAddr(SB), RODATA, $8
DATA	·freeTrampolineAddr(SB)/8, $free_trampoline<>(SB)
