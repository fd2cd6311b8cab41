/*
 * message
 * @0: the device
 *
 * Description:
 * It is "gone" \n 'x'.
 *
 * User Response:
 * None.
 */
KMSG_DOC(fx, 1, "device %x " "gone\n");
// KMSG_DOC(no, 2, "x");
#define X "/* not a comment */"
