//===- plugin/ResetIdents.cpp - Give ident_t clang's default location back -===//
//
// After the site pass has placed the sites (-O0 without -g): the location
// strings in ident_t were there only for it. See resetIdents in
// OtterState.h.
//
//===----------------------------------------------------------------------===//
#include "OtterState.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace otter::plugin {

namespace {
/// clang's ident_t string for a call with no location.
constexpr StringLiteral DefaultLocStr = ";unknown;unknown;0;0;;";

} // namespace

/// TUState::ResetIdents (-O0 without -g): the ";file;func;line;col;;"
/// strings in ident_t were there only to place the sites, which now carry
/// their own records. Every ident_t gets clang's default location back, as
/// in a build without the plugin, so the object does not carry (and the
/// AsmPrinter and assembler do not emit) a string and an ident_t per
/// location. Only at -O0, where nothing merges calls; at -O2 the object
/// keeps clang's usual ident_t, one per location (distinct operands alone
/// would not keep two directives' calls apart: NoMerge.cpp does). Returns
/// whether it changed the module.
bool resetIdents(Module &M) {
  StructType *IdentTy =
      StructType::getTypeByName(M.getContext(), "struct.ident_t");
  if (!IdentTy || IdentTy->getNumElements() != 5)
    return false;
  auto StringOf = [](const ConstantStruct &CS) -> GlobalVariable * {
    auto *SG = dyn_cast<GlobalVariable>(CS.getOperand(4)->stripPointerCasts());
    if (!SG || !SG->hasInitializer())
      return nullptr;
    auto *CDS = dyn_cast<ConstantDataSequential>(SG->getInitializer());
    return CDS && CDS->isCString() ? SG : nullptr;
  };
  GlobalVariable *DefaultStr = nullptr;
  DenseMap<Constant *, GlobalVariable *> Defaults; // by initializer
  std::vector<GlobalVariable *> Located;
  for (GlobalVariable &GV : M.globals()) {
    if (GV.getValueType() != IdentTy || !GV.isConstant() ||
        !GV.hasInitializer() || !GV.hasPrivateLinkage())
      continue;
    auto *CS = dyn_cast<ConstantStruct>(GV.getInitializer());
    GlobalVariable *SG = CS ? StringOf(*CS) : nullptr;
    if (!SG)
      continue;
    if (cast<ConstantDataSequential>(SG->getInitializer())->getAsCString() ==
        DefaultLocStr) {
      DefaultStr = SG;
      Defaults[CS] = &GV;
    } else {
      Located.push_back(&GV);
    }
  }
  if (Located.empty())
    return false;
  LLVMContext &Ctx = M.getContext();
  if (!DefaultStr) {
    DefaultStr = new GlobalVariable(
        M, ArrayType::get(Type::getInt8Ty(Ctx), DefaultLocStr.size() + 1),
        /*isConstant=*/true, GlobalValue::PrivateLinkage,
        ConstantDataArray::getString(Ctx, DefaultLocStr));
    DefaultStr->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    DefaultStr->setAlignment(Align(1));
  }
  SetVector<GlobalVariable *> Strings; // shared by the idents of a location
  for (GlobalVariable *GV : Located) {
    auto *CS = cast<ConstantStruct>(GV->getInitializer());
    // reserved_1, flags, reserved_2 stay; reserved_3 is the string's size.
    Constant *Fields[5] = {
        CS->getOperand(0), CS->getOperand(1), CS->getOperand(2),
        ConstantInt::get(CS->getOperand(3)->getType(), DefaultLocStr.size()),
        DefaultStr};
    Constant *Init = ConstantStruct::get(IdentTy, Fields);
    GlobalVariable *&D = Defaults[Init];
    if (!D) {
      D = new GlobalVariable(M, IdentTy, /*isConstant=*/true, GV->getLinkage(),
                             Init);
      D->setUnnamedAddr(GV->getUnnamedAddr());
      D->setAlignment(GV->getAlign());
    }
    Strings.insert(StringOf(*CS));
    GV->replaceAllUsesWith(D);
    GV->eraseFromParent();
  }
  for (GlobalVariable *SG : Strings) {
    if (SG == DefaultStr)
      continue;
    SG->removeDeadConstantUsers();
    if (SG->use_empty())
      SG->eraseFromParent();
  }
  return true;
}

} // namespace otter::plugin
