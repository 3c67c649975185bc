/* Writes an OTF2 archive that claims to be an OTTER trace (format property,
 * otter attributes, one location) but holds no events: the "empty trace"
 * case of the otter command's bad-input tests.
 * Usage: empty-trace <dir> [foreign]  ("foreign": no OTTER properties). */
#include <otf2/otf2.h>
#include <stdio.h>
#include <string.h>

static OTF2_FlushType preFlush(void *u, OTF2_FileType t, OTF2_LocationRef l,
                               void *c, bool f) {
  (void)u; (void)t; (void)l; (void)c; (void)f;
  return OTF2_FLUSH;
}
static OTF2_FlushCallbacks flushCbs = {preFlush, NULL};

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  int foreign = argc > 2 && strcmp(argv[2], "foreign") == 0;
  OTF2_Archive *a = OTF2_Archive_Open(argv[1], "traces", OTF2_FILEMODE_WRITE,
                                      1024 * 1024, 4 * 1024 * 1024,
                                      OTF2_SUBSTRATE_POSIX,
                                      OTF2_COMPRESSION_NONE);
  if (!a)
    return 1;
  OTF2_Archive_SetFlushCallbacks(a, &flushCbs, NULL);
  OTF2_Archive_SetSerialCollectiveCallbacks(a);
  OTF2_Archive_SetCreator(a, foreign ? "some other tool" : "OTTER");
  if (!foreign)
    OTF2_Archive_SetProperty(a, "OTTER::FORMAT", "otter-otf2-1", false);
  OTF2_Archive_OpenEvtFiles(a);
  OTF2_EvtWriter *ew = OTF2_Archive_GetEvtWriter(a, 0);
  if (foreign) {
    OTF2_EvtWriter_Enter(ew, NULL, 10, 0);
    OTF2_EvtWriter_Leave(ew, NULL, 20, 0);
  }
  OTF2_Archive_CloseEvtWriter(a, ew);
  OTF2_Archive_CloseEvtFiles(a);
  OTF2_GlobalDefWriter *gw = OTF2_Archive_GetGlobalDefWriter(a);
  OTF2_GlobalDefWriter_WriteClockProperties(gw, 1000000000, 0, 100, OTF2_UNDEFINED_TIMESTAMP);
  OTF2_GlobalDefWriter_WriteString(gw, 0, "");
  OTF2_GlobalDefWriter_WriteString(gw, 1, foreign ? "main" : "otter:task");
  OTF2_GlobalDefWriter_WriteString(gw, 2, "thread 0");
  OTF2_GlobalDefWriter_WriteString(gw, 3, "process");
  if (!foreign)
    OTF2_GlobalDefWriter_WriteAttribute(gw, 0, 1, 0, OTF2_TYPE_UINT64);
  else
    OTF2_GlobalDefWriter_WriteRegion(gw, 0, 1, 1, 0, OTF2_REGION_ROLE_FUNCTION,
                                     OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE,
                                     0, 0, 0);
  OTF2_GlobalDefWriter_WriteSystemTreeNode(gw, 0, 3, 3, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  OTF2_GlobalDefWriter_WriteLocationGroup(gw, 0, 3, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
  OTF2_GlobalDefWriter_WriteLocation(gw, 0, 2, OTF2_LOCATION_TYPE_CPU_THREAD,
                                     foreign ? 2 : 0, 0);
  OTF2_Archive_CloseGlobalDefWriter(a, gw);
  OTF2_Archive_Close(a);
  return 0;
}
