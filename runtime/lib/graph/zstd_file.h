//===- graph/zstd_file.h - An ostream that writes a .zst file ----*- C++ -*-===//
//
// Graph tables of millions of rows are written zstd-compressed (outputs.h,
// GraphFormats::CsvZstdNodes): most of the cost of writing them at exit was
// the kernel copying hundreds of megabytes, and a standard .zst file is what
// pandas (read_csv infers the compression from the name), zstdcat and
// DuckDB read directly. Debian's libzstd does the compression; this is only
// the std::streambuf around its streaming API, so the CSV writers write to
// it as to any std::ostream.
//
//===----------------------------------------------------------------------===//
#ifndef OTTER_GRAPH_ZSTD_FILE_H
#define OTTER_GRAPH_ZSTD_FILE_H

#include <cstdio>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

namespace otter {

/// A streambuf compressing into a file. Errors (open, write, compress)
/// leave failed() true and errno set where the system gave one.
class ZstdFileBuf final : public std::streambuf {
public:
  /// Level: zstd's compression level (1: fastest). Workers: threads of
  /// libzstd's own that compress while the writer's thread formats (0:
  /// the writer's thread compresses; the file is the same single frame
  /// either way, and a libzstd without threads compresses in the writer's).
  ZstdFileBuf(const std::string &Path, int Level, int Workers = 0);
  ~ZstdFileBuf() override;
  ZstdFileBuf(const ZstdFileBuf &) = delete;
  ZstdFileBuf &operator=(const ZstdFileBuf &) = delete;

  bool isOpen() const { return File != nullptr; }
  /// Ends the zstd frame and closes the file; false on any error so far.
  bool finish();
  bool failed() const { return Failed; }

protected:
  int_type overflow(int_type C) override;
  std::streamsize xsputn(const char *S, std::streamsize N) override;
  int sync() override;

private:
  /// Compresses what is in In (and empties it); End: ends the frame.
  bool compress(bool End);
  /// Compresses Size bytes at Data.
  bool compress(const char *Data, std::size_t Size, bool End);
  void *Ctx = nullptr; // ZSTD_CCtx
  std::FILE *File = nullptr;
  std::vector<char> In, Out;
  bool Failed = false;
  bool Finished = false;
};

} // namespace otter

#endif // OTTER_GRAPH_ZSTD_FILE_H
