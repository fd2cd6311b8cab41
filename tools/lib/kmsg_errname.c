// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_errname - errno names as the kernel's lib/errname.c has them.
 *
 * Numbers are those of an x86_64 kernel (include/uapi/asm-generic/errno-base.h,
 * include/uapi/asm-generic/errno.h, include/linux/errno.h).  Only the names
 * lib/errname.c knows are listed: aliases take the name lib/errname.c prints
 * (EWOULDBLOCK is "EAGAIN", EDEADLOCK is "EDEADLK"), 41, 58, 520 and
 * ENOGRACE (531) have no name, and EINIT, EPROCLIM, EREMDEV and ERREMOTE do
 * not exist on x86.
 */
#include <stddef.h>

#include "kmsg_render.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const names_0[] = {
	[1] = "-EPERM",
	[2] = "-ENOENT",
	[3] = "-ESRCH",
	[4] = "-EINTR",
	[5] = "-EIO",
	[6] = "-ENXIO",
	[7] = "-E2BIG",
	[8] = "-ENOEXEC",
	[9] = "-EBADF",
	[10] = "-ECHILD",
	[11] = "-EAGAIN",
	[12] = "-ENOMEM",
	[13] = "-EACCES",
	[14] = "-EFAULT",
	[15] = "-ENOTBLK",
	[16] = "-EBUSY",
	[17] = "-EEXIST",
	[18] = "-EXDEV",
	[19] = "-ENODEV",
	[20] = "-ENOTDIR",
	[21] = "-EISDIR",
	[22] = "-EINVAL",
	[23] = "-ENFILE",
	[24] = "-EMFILE",
	[25] = "-ENOTTY",
	[26] = "-ETXTBSY",
	[27] = "-EFBIG",
	[28] = "-ENOSPC",
	[29] = "-ESPIPE",
	[30] = "-EROFS",
	[31] = "-EMLINK",
	[32] = "-EPIPE",
	[33] = "-EDOM",
	[34] = "-ERANGE",
	[35] = "-EDEADLK",
	[36] = "-ENAMETOOLONG",
	[37] = "-ENOLCK",
	[38] = "-ENOSYS",
	[39] = "-ENOTEMPTY",
	[40] = "-ELOOP",
	[42] = "-ENOMSG",
	[43] = "-EIDRM",
	[44] = "-ECHRNG",
	[45] = "-EL2NSYNC",
	[46] = "-EL3HLT",
	[47] = "-EL3RST",
	[48] = "-ELNRNG",
	[49] = "-EUNATCH",
	[50] = "-ENOCSI",
	[51] = "-EL2HLT",
	[52] = "-EBADE",
	[53] = "-EBADR",
	[54] = "-EXFULL",
	[55] = "-ENOANO",
	[56] = "-EBADRQC",
	[57] = "-EBADSLT",
	[59] = "-EBFONT",
	[60] = "-ENOSTR",
	[61] = "-ENODATA",
	[62] = "-ETIME",
	[63] = "-ENOSR",
	[64] = "-ENONET",
	[65] = "-ENOPKG",
	[66] = "-EREMOTE",
	[67] = "-ENOLINK",
	[68] = "-EADV",
	[69] = "-ESRMNT",
	[70] = "-ECOMM",
	[71] = "-EPROTO",
	[72] = "-EMULTIHOP",
	[73] = "-EDOTDOT",
	[74] = "-EBADMSG",
	[75] = "-EOVERFLOW",
	[76] = "-ENOTUNIQ",
	[77] = "-EBADFD",
	[78] = "-EREMCHG",
	[79] = "-ELIBACC",
	[80] = "-ELIBBAD",
	[81] = "-ELIBSCN",
	[82] = "-ELIBMAX",
	[83] = "-ELIBEXEC",
	[84] = "-EILSEQ",
	[85] = "-ERESTART",
	[86] = "-ESTRPIPE",
	[87] = "-EUSERS",
	[88] = "-ENOTSOCK",
	[89] = "-EDESTADDRREQ",
	[90] = "-EMSGSIZE",
	[91] = "-EPROTOTYPE",
	[92] = "-ENOPROTOOPT",
	[93] = "-EPROTONOSUPPORT",
	[94] = "-ESOCKTNOSUPPORT",
	[95] = "-EOPNOTSUPP",
	[96] = "-EPFNOSUPPORT",
	[97] = "-EAFNOSUPPORT",
	[98] = "-EADDRINUSE",
	[99] = "-EADDRNOTAVAIL",
	[100] = "-ENETDOWN",
	[101] = "-ENETUNREACH",
	[102] = "-ENETRESET",
	[103] = "-ECONNABORTED",
	[104] = "-ECONNRESET",
	[105] = "-ENOBUFS",
	[106] = "-EISCONN",
	[107] = "-ENOTCONN",
	[108] = "-ESHUTDOWN",
	[109] = "-ETOOMANYREFS",
	[110] = "-ETIMEDOUT",
	[111] = "-ECONNREFUSED",
	[112] = "-EHOSTDOWN",
	[113] = "-EHOSTUNREACH",
	[114] = "-EALREADY",
	[115] = "-EINPROGRESS",
	[116] = "-ESTALE",
	[117] = "-EUCLEAN",
	[118] = "-ENOTNAM",
	[119] = "-ENAVAIL",
	[120] = "-EISNAM",
	[121] = "-EREMOTEIO",
	[122] = "-EDQUOT",
	[123] = "-ENOMEDIUM",
	[124] = "-EMEDIUMTYPE",
	[125] = "-ECANCELED",
	[126] = "-ENOKEY",
	[127] = "-EKEYEXPIRED",
	[128] = "-EKEYREVOKED",
	[129] = "-EKEYREJECTED",
	[130] = "-EOWNERDEAD",
	[131] = "-ENOTRECOVERABLE",
	[132] = "-ERFKILL",
	[133] = "-EHWPOISON",
};

static const char *const names_512[] = {
	[512 - 512] = "-ERESTARTSYS",
	[513 - 512] = "-ERESTARTNOINTR",
	[514 - 512] = "-ERESTARTNOHAND",
	[515 - 512] = "-ENOIOCTLCMD",
	[516 - 512] = "-ERESTART_RESTARTBLOCK",
	[517 - 512] = "-EPROBE_DEFER",
	[518 - 512] = "-EOPENSTALE",
	[519 - 512] = "-ENOPARAM",
	[521 - 512] = "-EBADHANDLE",
	[522 - 512] = "-ENOTSYNC",
	[523 - 512] = "-EBADCOOKIE",
	[524 - 512] = "-ENOTSUPP",
	[525 - 512] = "-ETOOSMALL",
	[526 - 512] = "-ESERVERFAULT",
	[527 - 512] = "-EBADTYPE",
	[528 - 512] = "-EJUKEBOX",
	[529 - 512] = "-EIOCBQUEUED",
	[530 - 512] = "-ERECALLCONFLICT",
};

static const char *kmsg_errname_abs(unsigned int err)
{
	if (err < ARRAY_SIZE(names_0))
		return names_0[err];
	if (err >= 512 && err - 512 < ARRAY_SIZE(names_512))
		return names_512[err - 512];
	return NULL;
}

/*
 * Like the kernel's errname(): kmsg_errname(EIO) is "EIO",
 * kmsg_errname(-EIO) is "-EIO", unknown values give NULL.
 */
const char *kmsg_errname(int err)
{
	const char *name;
	unsigned int mag;

	mag = err < 0 ? 0u - (unsigned int)err : (unsigned int)err;
	name = kmsg_errname_abs(mag);
	if (!name)
		return NULL;
	return err > 0 ? name + 1 : name;
}
