//===- plugin/MachineSites.cpp - Call-site labels placed by the AsmPrinter ===//
//
// The fast way to label call sites (docs/plugin.md "How sites are labelled"),
// used when clang writes the object or assembly itself (no LTO bitcode) for
// x86-64 ELF. The site pass (SitePass.cpp) tags each site's call with
// !heapallocsite metadata (the one call-site metadata both instruction
// selectors carry onto the machine call instruction) holding the directive
// record; here, at assembly printing time, a handler gives each tagged call
// a label before and after it (pre/post-instruction symbols: exactly the call
// instruction, the "after" label is the return address) and writes the site
// and directive records of otter/site_table.h through the MC streamer. No
// inline asm is parsed, which is what made the plugin's -O0 compiles slow
// (two asm statements per site, ~100 us each).
//
// LLVM 19 has no hook for a plugin to add a machine pass or an AsmPrinter
// handler; a GC strategy's metadata printer is the one registry-based
// extension the AsmPrinter calls with itself (beginAssembly), so the pass
// marks one function with gc "otter-sites" (a strategy with no roots and no
// safe points: the GC passes leave such a function alone), and the printer
// registers the handler.
//
//===----------------------------------------------------------------------===//
#include "OtterState.h"
#include "otter/site_table.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/CodeGen/AsmPrinter.h"
#include "llvm/CodeGen/AsmPrinterHandler.h"
#include "llvm/CodeGen/GCMetadata.h"
#include "llvm/CodeGen/GCMetadataPrinter.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/IR/Comdat.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/GCStrategy.h"
#include "llvm/IR/Metadata.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCSectionELF.h"
#include "llvm/MC/MCStreamer.h"

#include <string>
#include <vector>

using namespace llvm;

namespace otter::plugin {

const char MachineSiteGC[] = "otter-sites";
const char MachineSiteTag[] = "otter.site";

namespace {

/// The note header "Otter" records share (site_table.h), as the bytes the
/// object holds (x86-64: little-endian): emitted with one call per record.
std::string noteHeader(std::uint32_t DescSize, std::uint32_t Type) {
  std::string H;
  for (std::uint32_t V : {site_table::NoteOwnerSize, DescSize, Type})
    for (unsigned I = 0; I < 4; ++I)
      H.push_back(static_cast<char>(V >> (8 * I)));
  H.append("Otter\0\0\0", 8);
  return H;
}

/// Is \p MD a tag the site pass made (SitePass.cpp: tag, kind "d" or "f",
/// record symbol, note type, desc)? Other code puts !heapallocsite on calls
/// too: clang, with -g, a DIType on every C++ `new` (its operands may be
/// null), so the marker is checked operand by operand before it is read.
bool isOtterSiteTag(const MDNode *MD) {
  if (!MD || !isa<MDTuple>(MD) || MD->getNumOperands() != 5)
    return false;
  auto *Tag = dyn_cast_or_null<MDString>(MD->getOperand(0));
  auto *Kind = dyn_cast_or_null<MDString>(MD->getOperand(1));
  auto *Type = dyn_cast_or_null<ConstantAsMetadata>(MD->getOperand(3));
  return Tag && Tag->getString() == MachineSiteTag && Kind &&
         (Kind->getString() == "d" || Kind->getString() == "f") &&
         isa_and_nonnull<MDString>(MD->getOperand(2)) && Type &&
         isa<ConstantInt>(Type->getValue()) &&
         isa_and_nonnull<MDString>(MD->getOperand(4));
}

class SiteHandler : public AsmPrinterHandler {
public:
  explicit SiteHandler(AsmPrinter &AP) : AP(AP) {}

  void endModule() override {}

  void beginFunction(const MachineFunction *CMF) override {
    Sites.clear();
    if (!hasSites(CMF->getFunction()))
      return;
    // The instructions are the printer's to emit; attaching the labels
    // here, just before it does, is what a machine pass would do.
    auto &MF = const_cast<MachineFunction &>(*CMF);
    MCContext &Ctx = AP.OutContext;
    for (MachineBasicBlock &MBB : MF) {
      for (MachineInstr &MI : MBB.instrs()) {
        if (!MI.isCall())
          continue;
        if (!isOtterSiteTag(MI.getHeapAllocMarker()))
          continue;
        MDNode *MD = MI.getHeapAllocMarker();
        Site S;
        S.MD = MD;
        S.Start = MI.getPreInstrSymbol();
        if (!S.Start) {
          S.Start = Ctx.createTempSymbol("otter_site");
          MI.setPreInstrSymbol(MF, S.Start);
        }
        S.End = MI.getPostInstrSymbol();
        if (!S.End) {
          S.End = Ctx.createTempSymbol("otter_ret");
          MI.setPostInstrSymbol(MF, S.End);
        }
        // Nothing else reads the tag; no debug handler must take it for a
        // heap allocation type.
        MI.setHeapAllocMarker(MF, nullptr);
        Sites.push_back(S);
      }
    }
  }

  void endFunction(const MachineFunction *MF) override {
    if (Sites.empty())
      return;
    MCStreamer &OS = *AP.OutStreamer;
    MCContext &Ctx = AP.OutContext;
    OS.pushSection();
    // Records of directives and filters first (once per output, in a COMDAT
    // group keyed by their symbol), then this function's sites, in its own
    // group if it has one (dropped with it).
    for (const Site &S : Sites)
      emitKeyedRecord(*S.MD);
    const Comdat *C = MF->getFunction().getComdat();
    MCSection *Sec =
        C ? Ctx.getELFSection(site_table::SectionName, ELF::SHT_NOTE,
                              ELF::SHF_ALLOC | ELF::SHF_GROUP, 0, C->getName(),
                              /*IsComdat=*/true)
          : plainSection();
    OS.switchSection(Sec);
    // Site records are multiples of 4 bytes: one alignment per function.
    OS.emitValueToAlignment(Align(4));
    for (const Site &S : Sites) {
      // Operands: tag, kind ("d" site of a directive, "f" filtered site),
      // keyed record's symbol, its note type, its desc.
      bool Filtered = cast<MDString>(S.MD->getOperand(1))->getString() == "f";
      OS.emitBytes(Filtered ? FilteredSiteHeader : SiteHeader);
      // int32 fields Sym - . (PC-relative, as ".long Sym-." in the
      // assembler), from one label at the first field.
      // The expressions share their operands: three fields of 3,000 sites
      // are most of what the records cost MC in memory.
      MCSymbol *Here = Ctx.createTempSymbol();
      OS.emitLabel(Here);
      const MCExpr *HereRef = MCSymbolRefExpr::create(Here, Ctx);
      emitRelative(MCSymbolRefExpr::create(S.Start, Ctx), HereRef);
      emitRelative(MCSymbolRefExpr::create(S.End, Ctx),
                   MCBinaryExpr::createAdd(HereRef, offset(4), Ctx));
      if (!Filtered)
        emitRelative(keyedRef(*S.MD),
                     MCBinaryExpr::createAdd(HereRef, offset(8), Ctx));
    }
    OS.popSection();
    Sites.clear();
  }

private:
  /// Does the function call a tagged site? From the site entry points' use
  /// lists, once per module: walking every machine instruction of a
  /// function without one (reduction combiners, task entries, ...) only
  /// costs cache misses.
  bool hasSites(const Function &F) {
    if (!SiteFunctionsKnown) {
      SiteFunctionsKnown = true;
      const unsigned Tag = F.getContext().getMDKindID("heapallocsite");
      for (const Function &Callee : *F.getParent()) {
        if (!isSiteEntry(Callee.getName()))
          continue;
        for (const User *U : Callee.users())
          if (const auto *CB = dyn_cast<CallBase>(U))
            if (CB->getMetadata(Tag))
              SiteFunctions.insert(CB->getFunction());
      }
    }
    return SiteFunctions.contains(&F);
  }

  struct Site {
    MDNode *MD = nullptr;
    MCSymbol *Start = nullptr, *End = nullptr;
  };

  /// int32 Target - Field, where Field is this field's address.
  void emitRelative(const MCExpr *Target, const MCExpr *Field) {
    AP.OutStreamer->emitValue(
        MCBinaryExpr::createSub(Target, Field, AP.OutContext), 4);
  }

  /// A field's offset in a site record (4 or 8), made once.
  const MCExpr *offset(int64_t Bytes) {
    const MCExpr *&E = Bytes == 4 ? Four : Eight;
    if (!E)
      E = MCConstantExpr::create(Bytes, AP.OutContext);
    return E;
  }

  /// A reference to the record a site's tag names, made once.
  const MCExpr *keyedRef(const MDNode &MD) {
    const MCExpr *&E = KeyedRefs[&MD];
    if (!E)
      E = MCSymbolRefExpr::create(keyedSymbol(MD), AP.OutContext);
    return E;
  }

  /// .note.otter outside any group.
  MCSection *plainSection() {
    if (!PlainSection)
      PlainSection = AP.OutContext.getELFSection(
          site_table::SectionName, ELF::SHT_NOTE, ELF::SHF_ALLOC);
    return PlainSection;
  }

  /// The symbol of the record a site's tag names (one tag per directive).
  MCSymbol *keyedSymbol(const MDNode &MD) {
    MCSymbol *&Sym = KeyedSymbols[&MD];
    if (!Sym)
      Sym = AP.OutContext.getOrCreateSymbol(
          cast<MDString>(MD.getOperand(2))->getString());
    return Sym;
  }

  /// The directive (or filter) record a site's tag names, once.
  void emitKeyedRecord(const MDNode &MD) {
    StringRef Name = cast<MDString>(MD.getOperand(2))->getString();
    if (!Emitted.insert(Name).second)
      return;
    auto *TypeMD = dyn_cast<ConstantAsMetadata>(MD.getOperand(3));
    StringRef Desc = cast<MDString>(MD.getOperand(4))->getString();
    MCStreamer &OS = *AP.OutStreamer;
    MCContext &Ctx = AP.OutContext;
    MCSymbol *Sym = keyedSymbol(MD);
    if (Sym->isTemporary()) {
      // A directive of the compiled file itself (its symbol is private): no
      // other object carries this record, so it needs no COMDAT group of
      // its own (each group is a section, a symbol and a group section in
      // the object: most of the records' cost at -O0).
      OS.switchSection(plainSection());
      OS.emitValueToAlignment(Align(4));
    } else {
      OS.switchSection(Ctx.getELFSection(
          site_table::SectionName, ELF::SHT_NOTE, ELF::SHF_ALLOC | ELF::SHF_GROUP,
          0, Name, /*IsComdat=*/true));
      OS.emitValueToAlignment(Align(4));
      OS.emitSymbolAttribute(Sym, MCSA_Weak);
      OS.emitSymbolAttribute(Sym, MCSA_Hidden);
    }
    OS.emitLabel(Sym);
    OS.emitBytes(noteHeader(
        Desc.size(), cast<ConstantInt>(TypeMD->getValue())->getZExtValue()));
    OS.emitBytes(Desc);
    OS.emitValueToAlignment(Align(4));
  }

  AsmPrinter &AP;
  bool SiteFunctionsKnown = false;
  DenseSet<const Function *> SiteFunctions;
  std::vector<Site> Sites;
  StringSet<> Emitted;
  DenseMap<const MDNode *, MCSymbol *> KeyedSymbols;
  DenseMap<const MDNode *, const MCExpr *> KeyedRefs;
  const MCExpr *Four = nullptr, *Eight = nullptr;
  MCSection *PlainSection = nullptr; // .note.otter outside any group
  const std::string SiteHeader = noteHeader(
      site_table::SiteDescSize,
      site_table::noteType(site_table::Version, site_table::SiteKind));
  const std::string FilteredSiteHeader = noteHeader(
      site_table::FilteredSiteDescSize,
      site_table::noteType(site_table::Version, site_table::FilteredSiteKind));
};

/// No roots, no safe points, no lowering: only "emit metadata" so that the
/// AsmPrinter instantiates the printer below.
class SiteGC : public GCStrategy {
public:
  SiteGC() { UsesMetadata = true; }
};

class SiteGCPrinter : public GCMetadataPrinter {
public:
  void beginAssembly(Module &, GCModuleInfo &, AsmPrinter &AP) override {
    AP.addAsmPrinterHandler(std::make_unique<SiteHandler>(AP));
  }
};

GCRegistry::Add<SiteGC> RegisterGC(MachineSiteGC,
                                   "OTTER: call-site labels (no GC)");
GCMetadataPrinterRegistry::Add<SiteGCPrinter>
    RegisterPrinter(MachineSiteGC, "OTTER: call-site labels (no GC)");

} // namespace
} // namespace otter::plugin
