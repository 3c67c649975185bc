//===- graph/zstd_file.cpp - An ostream that writes a .zst file ----------===//
#include "graph/zstd_file.h"

#include <cerrno>
#include <zstd.h>

namespace otter {

namespace {
constexpr std::size_t InSize = std::size_t(1) << 20;
} // namespace

ZstdFileBuf::ZstdFileBuf(const std::string &Path, int Level, int Workers) {
  File = std::fopen(Path.c_str(), "wb");
  if (!File) {
    Failed = true;
    return;
  }
  ZSTD_CCtx *C = ZSTD_createCCtx();
  if (!C) {
    Failed = true;
    return;
  }
  Ctx = C;
  ZSTD_CCtx_setParameter(C, ZSTD_c_compressionLevel, Level);
  ZSTD_CCtx_setParameter(C, ZSTD_c_checksumFlag, 1);
  if (Workers > 0) // an error (no thread support) leaves it single threaded
    ZSTD_CCtx_setParameter(C, ZSTD_c_nbWorkers, Workers);
  In.resize(InSize);
  Out.resize(ZSTD_CStreamOutSize());
  setp(In.data(), In.data() + In.size());
}

ZstdFileBuf::~ZstdFileBuf() {
  finish();
  if (Ctx)
    ZSTD_freeCCtx(static_cast<ZSTD_CCtx *>(Ctx));
}

bool ZstdFileBuf::compress(bool End) {
  if (!compress(In.data(), std::size_t(pptr() - pbase()), End))
    return false;
  setp(In.data(), In.data() + In.size());
  return true;
}

bool ZstdFileBuf::compress(const char *Data, std::size_t Size, bool End) {
  if (Failed || !Ctx)
    return false;
  ZSTD_inBuffer Src{Data, Size, 0};
  ZSTD_EndDirective Mode = End ? ZSTD_e_end : ZSTD_e_continue;
  for (;;) {
    ZSTD_outBuffer Dst{Out.data(), Out.size(), 0};
    std::size_t Left =
        ZSTD_compressStream2(static_cast<ZSTD_CCtx *>(Ctx), &Dst, &Src, Mode);
    if (ZSTD_isError(Left)) {
      Failed = true;
      return false;
    }
    if (Dst.pos && std::fwrite(Out.data(), 1, Dst.pos, File) != Dst.pos) {
      Failed = true;
      return false;
    }
    if (End ? Left == 0 : Src.pos == Src.size)
      break;
  }
  return true;
}

std::streamsize ZstdFileBuf::xsputn(const char *S, std::streamsize N) {
  // The graph writers hand over their rows 1 MiB at a time: given to zstd
  // from where they are, not copied into In first (zstd copies its input
  // into its own window anyway). Small pieces are buffered.
  if (N < std::streamsize(In.size() / 4))
    return std::streambuf::xsputn(S, N);
  if (!compress(false) || !compress(S, std::size_t(N), false))
    return 0;
  return N;
}

ZstdFileBuf::int_type ZstdFileBuf::overflow(int_type C) {
  if (!compress(false))
    return traits_type::eof();
  if (!traits_type::eq_int_type(C, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(C);
    pbump(1);
  }
  return traits_type::not_eof(C);
}

int ZstdFileBuf::sync() { return Failed ? -1 : 0; }

bool ZstdFileBuf::finish() {
  if (Finished)
    return !Failed;
  Finished = true;
  if (File) {
    compress(true);
    if (std::fflush(File) != 0)
      Failed = true;
    int SavedErrno = errno;
    if (std::fclose(File) != 0 && !Failed) {
      Failed = true;
      SavedErrno = errno;
    }
    errno = SavedErrno;
    File = nullptr;
  }
  return !Failed;
}

} // namespace otter
