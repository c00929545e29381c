#if defined(PLD_DEVICE)
#include "pld/runtime/device.h"
#else
#include "pld/runtime/host.h"
#endif
