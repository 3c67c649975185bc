//===- comm_matrix_test.cpp - The job's communication matrices -----------===//
//
// report_job.h's oneSidedMatrix on hand-built ranks: a cell holds the bytes
// that left the row's rank's memory for the column's, so a Get is drawn
// from its target to its origin and every other one-sided operation from
// origin to target; file accesses (no peer) are not in it.
//
//===----------------------------------------------------------------------===//
#include "report_job.h"

#include <gtest/gtest.h>

using namespace otter;
using namespace otter::analysis;

namespace {

/// A rank whose calls each move one transfer of Bytes to world rank Peer.
struct Rank {
  Graph G;
  explicit Rank(std::int64_t R) { G.Mpi.Rank = R; }
  void transfer(mpi::Function F, std::uint32_t Peer, std::uint64_t Bytes) {
    MpiCall C;
    C.Function = F;
    C.FirstOp = std::uint32_t(G.Mpi.Ops.size());
    C.OpCount = 1;
    MpiOp Op;
    Op.Kind = EventKind::MpiTransfer;
    Op.Peer = Peer;
    Op.Bytes = Bytes;
    G.Mpi.Ops.push_back(Op);
    G.Mpi.Calls.push_back(C);
  }
};

const CommCell *cell(const std::vector<CommCell> &Cells, std::uint32_t From,
                     std::uint32_t To) {
  for (const CommCell &C : Cells)
    if (C.From == From && C.To == To)
      return &C;
  return nullptr;
}

TEST(CommMatrix, OneSidedDirectionFollowsTheData) {
  Rank R0(0), R1(1), R2(2);
  R0.transfer(mpi::Function::Put, 1, 8);
  R0.transfer(mpi::Function::Accumulate, 1, 4);
  R0.transfer(mpi::Function::Get, 2, 16); // from 2's memory into 0's
  R1.transfer(mpi::Function::Rget, 0, 32);
  R1.transfer(mpi::Function::File_write_at, mpi::NoRank, 64);
  R2.transfer(mpi::Function::Fetch_and_op, 0, 4);
  JobGraph M;
  M.Ranks = {R0.G, R1.G, R2.G};
  const std::vector<CommCell> Cells = oneSidedMatrix(M);
  // Not (1, 0) nor (0, 2): the gets go the other way; not the file write.
  ASSERT_EQ(Cells.size(), 2u);
  const CommCell *ZeroToOne = cell(Cells, 0, 1);
  ASSERT_NE(ZeroToOne, nullptr);
  EXPECT_EQ(ZeroToOne->Messages, 3u); // 0's Put and Accumulate, 1's Rget
  EXPECT_EQ(ZeroToOne->Bytes, 8u + 4u + 32u);
  const CommCell *TwoToZero = cell(Cells, 2, 0);
  ASSERT_NE(TwoToZero, nullptr);
  EXPECT_EQ(TwoToZero->Messages, 2u); // 0's Get, 2's Fetch_and_op
  EXPECT_EQ(TwoToZero->Bytes, 16u + 4u);
}

TEST(CommMatrix, NoOneSidedOperationNoCell) {
  Rank R0(0);
  R0.transfer(mpi::Function::File_read_at, mpi::NoRank, 8);
  JobGraph M;
  M.Ranks = {R0.G};
  EXPECT_TRUE(oneSidedMatrix(M).empty());
}

} // namespace
