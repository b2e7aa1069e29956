/**
 * Spanish texts of the accounts messages the server sends, by key (see ../messages.ts). A key never
 * changes meaning; a text may be reworded (the web's translations of the key are then reviewed).
 */
export const accountsMessages = {
  // Password rule (accounts.ts passwordProblem) and sign-in/registration forms.
  passwordTooShort: 'La contraseña debe tener al menos {{min, number}} caracteres.',
  passwordTooLong: 'La contraseña no puede tener más de 200 caracteres.',
  passwordIsEmail: 'La contraseña no puede ser igual al correo electrónico.',
  passwordContainsEmailName: 'La contraseña no puede contener el nombre de usuario del correo.',
  passwordRequired: 'Ingrese la contraseña.',
  loginPasswordRequired: 'Ingrese su contraseña.',
  currentPasswordRequired: 'Ingrese su contraseña actual.',
  emailInvalid: 'Correo electrónico no válido.',
  nameRequired: 'Ingrese el nombre.',
  nameTooLong: 'El nombre no puede tener más de 100 caracteres.',
  lastNameRequired: 'Ingrese el apellido.',
  lastNameTooLong: 'El apellido no puede tener más de 100 caracteres.',
  // Users, roles and institutions forms.
  roleRepeated: 'Un rol está repetido.',
  institutionRepeated: 'Una institución está repetida.',
  // Schema issues with values (grantsSchema): made with textWith, so the server sends their key and values.
  grantActionUnknown: 'La acción {{action}} no existe para {{resource}}.',
  grantScopeInvalid: 'El alcance {{scope}} no es válido para {{resource}}: admite {{scopes}}.',
  grantRepeated: 'El permiso {{grant}} está repetido.',
  roleNameRequired: 'Ingrese el nombre del rol.',
  descriptionTooLong: 'La descripción no puede tener más de 500 caracteres.',
  codeRequired: 'Ingrese el código.',
  codeTooLong: 'El código no puede tener más de 30 caracteres.',
  codeInvalid: 'El código solo admite letras, números, guion y guion bajo.',
  institutionNameTooLong: 'El nombre no puede tener más de 200 caracteres.',
  entityRequired: 'Una institución de tipo entidad debe indicar su entidad municipal.',
  entityOnlyForEntities: 'Solo las instituciones de tipo entidad tienen entidad municipal.',
  // Audit trail query.
  auditEntityTypeInvalid: 'Tipo de registro no válido.',
  auditEntityIdInvalid: 'Registro no válido.',
  auditVerifyRequiresAllScope: 'Verificar la cadena de la bitácora requiere el permiso de la bitácora sobre toda la institución.',
  // auth
  accountLockedFor: 'Demasiados intentos fallidos con este correo. Intente de nuevo en {{minutes, number}} min.',
  emailTaken: 'Ya existe una cuenta con ese correo electrónico.',
  registrationDisabled: 'El registro de cuentas está deshabilitado. Solicite una cuenta a un administrador.',
  currentPasswordWrong: 'La contraseña actual no es correcta.',
  newPasswordSameAsCurrent: 'La nueva contraseña debe ser distinta de la actual.',
  registered:
    'Si la dirección es válida, la cuenta quedó registrada y pendiente de activación por un administrador. Podrá ingresar cuando la activen.',
  noToken: 'No hay token',
  // «Olvidé mi contraseña»
  resetRequested:
    'Si la dirección está registrada, recibirá un correo con un enlace para restablecer su contraseña. Revise también la carpeta de correo no deseado.',
  resetLinkInvalid: 'El enlace para restablecer la contraseña no es válido, ya se usó o venció. Solicite uno nuevo.',
  // users
  userNotFound: 'El usuario no existe.',
  roleMissing: 'Uno de los roles no existe.',
  institutionMissing: 'Una de las instituciones no existe.',
  lastSuperAdmin:
    'No se puede realizar el cambio: dejaría el sistema sin ningún super administrador activo (usuario activo de la institución SISTEMA).',
  cannotDeactivateSelf: 'No puede desactivar su propia cuenta.',
  // privilege ceiling
  systemMembershipSuperAdminOnly:
    'Solo un super administrador puede agregar usuarios a la institución SISTEMA (super administradores).',
  superAdminAccountSuperAdminOnly: 'Solo un super administrador puede modificar la cuenta de un super administrador.',
  accountBeyondCeiling: 'La cuenta {{email}} tiene permisos que usted no tiene ({{grants}}): no puede modificarla.',
  assignRoleBeyondCeiling: 'No puede asignar el rol {{names}}: da permisos que usted no tiene: {{grants}}.',
  assignRolesBeyondCeiling: 'No puede asignar los roles {{names}}: da permisos que usted no tiene: {{grants}}.',
  userInstitutionBeyondCeiling:
    'Una de las instituciones, por sus roles predeterminados, da permisos que usted no tiene: {{grants}}.',
  roleGrantsBeyondCeiling: 'El rol da permisos que usted no tiene: {{grants}}.',
  roleBeyondCeiling: 'No puede modificar ni eliminar el rol "{{name}}": el rol da permisos que usted no tiene: {{grants}}.',
  institutionGrantsBeyondCeiling: 'La institución, por sus roles predeterminados, da permisos que usted no tiene: {{grants}}.',
  institutionBeyondCeiling:
    'No puede modificar ni eliminar la institución "{{name}}": sus roles predeterminados da permisos que usted no tiene: {{grants}}.',
  // roles
  roleNotFound: 'El rol no existe.',
  roleNameTaken: 'Ya existe un rol con ese nombre.',
  roleHasUsers:
    'El rol "{{name}}" está asignado a usuarios (en total: {{count, number}}). Reasígnelos a otro rol antes de eliminarlo.',
  roleIsInstitutionDefault:
    'El rol "{{name}}" es el rol predeterminado de instituciones (en total: {{count, number}}). Quíteselo antes de eliminarlo.',
  // institutions
  institutionNotFound: 'La institución no existe.',
  institutionCodeTaken: 'Ya existe una institución con ese código.',
  systemInstitutionFixed: 'La institución SISTEMA la define el sistema: no se puede modificar, desactivar ni eliminar.',
  entityMissing: 'La entidad municipal no existe.',
  institutionHasUsers:
    'La institución "{{name}}" tiene usuarios (en total: {{count, number}}). Quíteselos o desactívela en lugar de eliminarla.',
  // profile
  sessionNotFound: 'La sesión no existe o ya fue cerrada.',
} as const;
