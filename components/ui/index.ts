export { cn } from "./cn";
export { Button, type ButtonProps, type ButtonVariant } from "./button";
export { Input, Select, Textarea, Checkbox } from "./input";
export { Field, fieldErrors } from "./field";
export { Badge, type BadgeTone } from "./badge";
export { ClassificationBanner, ClassificationBadge, classificationLabel } from "./classification";
export { Table, THead, TBody, Tr, Th, Td } from "./table";
export { Alert, Card } from "./alert";
export { ConfirmButton } from "./confirm";
